package io.specwatch.ingest.generate;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes each deployment's lines to {@code <out>/<deployment>/engine.log}, {@code profile.log} and
 * {@code requests.jsonl} and counts them for the manifest. A file is created when its first line is
 * written.
 */
public final class FileOutput implements TickHandler {

  private final Path out;
  private final Map<String, Open> open = new HashMap<>();
  private final Map<String, Map<String, Long>> counts = new TreeMap<>();

  private final class Open implements LineSink {
    final DeploymentSpec d;
    final List<FormatWriter> writers = new ArrayList<>();
    final Map<String, BufferedWriter> files = new LinkedHashMap<>();

    Open(DeploymentSpec d) {
      this.d = d;
      writers.add(FormatWriter.engineLog(d));
      if (d.phaseProfile() && d.method().speculative()) {
        writers.add(new PhaseProfileWriter());
      }
      if (d.requestFormat() != RequestFormat.NONE && d.method().speculative()) {
        writers.add(new RequestWriter(d));
      }
    }

    @Override
    public void line(String file, Instant time, String text) {
      try {
        BufferedWriter w = files.get(file);
        if (w == null) {
          Path dir = out.resolve(d.id());
          Files.createDirectories(dir);
          w = Files.newBufferedWriter(dir.resolve(file), StandardCharsets.UTF_8);
          files.put(file, w);
        }
        w.write(text);
        w.write('\n');
        counts.computeIfAbsent(d.id(), k -> new TreeMap<>()).merge(file, 1L, Long::sum);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + out.resolve(d.id()).resolve(file), e);
      }
    }

    void flush() throws IOException {
      for (BufferedWriter w : files.values()) {
        w.flush();
      }
    }

    void close() throws IOException {
      for (BufferedWriter w : files.values()) {
        w.close();
      }
    }
  }

  public FileOutput(Path out) {
    this.out = out;
  }

  @Override
  public void begin(DeploymentSpec d) {
    open.put(d.id(), new Open(d));
    counts.computeIfAbsent(d.id(), k -> new TreeMap<>());
  }

  @Override
  public void tick(DeploymentSpec d, Tick t) {
    Open o = open.get(d.id());
    for (FormatWriter w : o.writers) {
      w.tick(t, o);
    }
  }

  @Override
  public void end(DeploymentSpec d) {
    Open o = open.remove(d.id());
    try {
      o.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close files of " + d.id(), e);
    }
  }

  @Override
  public void flush() {
    for (Open o : open.values()) {
      try {
        o.flush();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot flush files of " + o.d.id(), e);
      }
    }
  }

  /** Lines written per deployment and file name. */
  public Map<String, Map<String, Long>> counts() {
    return counts;
  }
}
