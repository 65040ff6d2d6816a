package io.specwatch.ingest.ship;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogFileReaderTest {

  @Test
  void keepsByteOffsetsLineNumbersAndLastLineWithoutNewline(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("x.log");
    Files.write(f, "ab\r\n\nçé\nlast".getBytes(StandardCharsets.UTF_8));
    List<SourceLine> lines = new ArrayList<>();
    assertThat(LogFileReader.forEachLine(f, lines::add)).isEqualTo(4);
    assertThat(lines).extracting(SourceLine::lineNumber).containsExactly(1L, 2L, 3L, 4L);
    assertThat(lines).extracting(SourceLine::offset).containsExactly(0L, 4L, 5L, 10L);
    assertThat(lines).extracting(SourceLine::text).containsExactly("ab", "", "çé", "last");
    assertThat(lines.get(0).bytes()).containsExactly('a', 'b', '\r');
  }
}
