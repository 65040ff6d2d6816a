package io.specwatch.ingest.ship;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class NewlineScanProperties {

  @Property(tries = 3000)
  void indexOfNewlineFindsTheFirstNewlineLikeAByteLoop(
      @ForAll @Size(max = 70) byte[] bytes,
      @ForAll @IntRange(max = 70) int from,
      @ForAll @IntRange(max = 70) int to,
      @ForAll @IntRange(max = 9) int newlines,
      @ForAll long seed) {
    java.util.Random r = new java.util.Random(seed);
    for (int k = 0; k < newlines && bytes.length > 0; k++) {
      bytes[r.nextInt(bytes.length)] = '\n';
    }
    int end = Math.min(to, bytes.length);
    int start = Math.min(from, end);
    int expected = -1;
    for (int i = start; i < end && expected < 0; i++) {
      if (bytes[i] == '\n') {
        expected = i;
      }
    }
    assertThat(LogFileReader.indexOfNewline(bytes, start, end)).isEqualTo(expected);
  }
}
