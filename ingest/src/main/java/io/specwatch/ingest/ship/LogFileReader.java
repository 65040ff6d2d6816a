package io.specwatch.ingest.ship;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/** Reads a whole file line by line, keeping byte offsets (growing files: the tail package). */
public final class LogFileReader {

  private LogFileReader() {}

  /** Calls sink for every line in order; a last line without a newline is included. */
  public static long forEachLine(Path file, Consumer<SourceLine> sink) throws IOException {
    long lines = 0;
    long offset = 0;
    long start = 0;
    ByteArrayOutputStream buf = new ByteArrayOutputStream(512);
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      int b;
      while ((b = in.read()) != -1) {
        offset++;
        if (b == '\n') {
          sink.accept(line(++lines, start, buf.toByteArray()));
          buf.reset();
          start = offset;
        } else {
          buf.write(b);
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    if (buf.size() > 0) {
      sink.accept(line(++lines, start, buf.toByteArray()));
    }
    return lines;
  }

  private static SourceLine line(long number, long offset, byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    if (text.endsWith("\r")) {
      text = text.substring(0, text.length() - 1);
    }
    return new SourceLine(number, offset, bytes, text);
  }
}
