package io.specwatch.ingest.normalise;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The hot path of {@link EventIds} (the fixed part's blocks mixed once per source, then only the
 * rest: {@link Murmur3x64}) gives what commons-codec's {@code MurmurHash3.hash128x64} gives for the
 * whole material ({@link EventIds#ofMaterial}), for every length of the fixed part and of the line
 * modulo the 16-byte block (so every tail case and every split of a block between the fixed part
 * and the line), with sources changing between calls on the same thread.
 */
class EventIdsProperties {

  record Source(String host, String source, String identity) {}

  record Line(int source, long offset, String text) {}

  @Property(tries = 300)
  void theHotPathHashesAsCommonsCodecDoes(
      @ForAll("sources") List<Source> sources, @ForAll("lines") List<Line> lines) {
    for (Line l : lines) {
      Source s = sources.get(l.source() % sources.size());
      String material =
          s.host() + "\0" + s.source() + "\0" + s.identity() + "\0" + l.offset() + "\0" + l.text();
      String expected = EventIds.ofMaterial(material.getBytes(StandardCharsets.UTF_8));
      assertThat(EventIds.of(s.host(), s.source(), s.identity(), l.offset(), l.text()))
          .as("%s", material)
          .isEqualTo(expected);
      byte[] utf8 = l.text().getBytes(StandardCharsets.UTF_8);
      byte[] padded = Arrays.copyOf(utf8, utf8.length + 7); // only the first length bytes count
      Arrays.fill(padded, utf8.length, padded.length, (byte) 'x');
      assertThat(
              EventIds.ofUtf8(s.host(), s.source(), s.identity(), l.offset(), padded, utf8.length))
          .as("%s", material)
          .isEqualTo(expected);
    }
  }

  @Provide
  Arbitrary<List<Source>> sources() {
    Arbitrary<String> part = text(0, 40);
    return Combinators.combine(part, part, part).as(Source::new).list().ofMinSize(1).ofMaxSize(3);
  }

  @Provide
  Arbitrary<List<Line>> lines() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 2),
            Arbitraries.oneOf(
                Arbitraries.longs().between(0, 1_000_000_000_000L),
                Arbitraries.longs().between(-1000, -1),
                Arbitraries.of(0L, 9L, 10L, Long.MAX_VALUE)),
            text(0, 100))
        .as(Line::new)
        .list()
        .ofMinSize(1)
        .ofMaxSize(6);
  }

  /** ASCII mostly, some 2-, 3- and 4-byte UTF-8 chars and NULs. */
  private static Arbitrary<String> text(int min, int max) {
    return Arbitraries.strings()
        .withCharRange(' ', '~')
        .withChars('\0', 'é', 'µ', '€', '\uD83D', '\uDE00')
        .ofMinLength(min)
        .ofMaxLength(max)
        .map(EventIdsProperties::wellFormed);
  }

  /** Lone surrogates would be encoded as '?': keep the pairs only. */
  private static String wellFormed(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        b.append(c).append(s.charAt(++i));
      } else if (!Character.isSurrogate(c)) {
        b.append(c);
      }
    }
    return b.toString();
  }
}
