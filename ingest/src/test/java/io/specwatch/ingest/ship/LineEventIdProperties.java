package io.specwatch.ingest.ship;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.normalise.EventIds;
import io.specwatch.ingest.normalise.SourceContext;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The shipper hashes a line's event id from its bytes when {@link SourceLine#asciiTextLength()}
 * says they are the text's UTF-8: that shortcut must give {@link EventIds#of} of the text for every
 * line, whatever its bytes (ASCII, a trailing CR, valid multi-byte UTF-8 including U+FFFD itself,
 * malformed and cut sequences, NUL), and must be taken for plain ASCII lines.
 */
class LineEventIdProperties {

  private static final SourceContext SOURCE =
      new SourceContext("dep", "gpu-1", "/var/log/engine.log", "0123456789abcdef");

  @Property(tries = 5000)
  void shortcutIsTakenOnlyWhenTheBytesAreTheTextsUtf8(@ForAll("lineBytes") byte[] bytes) {
    SourceLine line = SourceLine.of(3, 1234, bytes, bytes.length);
    int n = line.asciiTextLength();
    if (n >= 0) {
      assertThat(Arrays.copyOf(bytes, n)).isEqualTo(line.text().getBytes(StandardCharsets.UTF_8));
    }
    assertThat(LineIngestor.eventId(SOURCE, line))
        .isEqualTo(
            EventIds.of(
                SOURCE.host(), SOURCE.source(), SOURCE.sourceIdentity(), 1234, line.text()));
    Statistics.label("shortcut").collect(n >= 0);
    Statistics.label("shortcut")
        .coverage(
            c -> {
              c.check(true).percentage(p -> p > 20);
              c.check(false).percentage(p -> p > 20);
            });
  }

  @Example
  void asciiLinesTakeTheShortcut() {
    for (String text : new String[] {"", "a", "Decode batch. #running-req: 1, ", "x\r", "\r"}) {
      byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
      SourceLine line = SourceLine.of(1, 0, bytes, bytes.length);
      assertThat(line.asciiTextLength())
          .as(text)
          .isEqualTo(text.endsWith("\r") ? bytes.length - 1 : bytes.length);
    }
    for (String text : new String[] {"µ", "\uFFFD", "a\uFFFDb", "x\r\r"}) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      SourceLine line = SourceLine.of(1, 0, bytes, bytes.length);
      if (line.asciiTextLength() >= 0) {
        assertThat(Arrays.copyOf(bytes, line.asciiTextLength()))
            .isEqualTo(line.text().getBytes(StandardCharsets.UTF_8));
      }
    }
    byte[] malformed = {'a', (byte) 0x80, 'b'}; // one U+FFFD for one byte: same length
    assertThat(SourceLine.of(1, 0, malformed, 3).asciiTextLength()).isEqualTo(-1);
  }

  @Provide
  Arbitrary<byte[]> lineBytes() {
    Arbitrary<byte[]> ascii =
        Arbitraries.strings()
            .ascii()
            .ofMaxLength(80)
            .map(s -> s.replace("\n", ""))
            .map(s -> s.getBytes(StandardCharsets.US_ASCII));
    Arbitrary<byte[]> withCr = ascii.map(b -> concat(b, new byte[] {'\r'}));
    Arbitrary<byte[]> unicode =
        Arbitraries.strings()
            .all()
            .ofMaxLength(40)
            .map(s -> s.replace("\n", ""))
            .map(s -> s.getBytes(StandardCharsets.UTF_8));
    Arbitrary<byte[]> replacementChar =
        ascii.map(b -> concat(b, "\uFFFD".getBytes(StandardCharsets.UTF_8)));
    Arbitrary<byte[]> anyBytes =
        Arbitraries.bytes().filter(b -> b != '\n').array(byte[].class).ofMaxSize(40);
    Arbitrary<byte[]> cut =
        unicode.flatMap(
            b -> Arbitraries.integers().between(0, b.length).map(k -> Arrays.copyOf(b, k)));
    return Arbitraries.oneOf(ascii, ascii, withCr, unicode, replacementChar, anyBytes, cut);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
