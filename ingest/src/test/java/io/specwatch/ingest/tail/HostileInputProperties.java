package io.specwatch.ingest.tail;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.normalise.SourceContext;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.ship.IngestOutcome;
import io.specwatch.ingest.ship.LineIngestor;
import io.specwatch.ingest.ship.LogFileReader;
import io.specwatch.ingest.ship.SourceLine;
import io.specwatch.schemas.DeadLetter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterProperty;

/**
 * Hostile files through the real readers (the whole-file {@link LogFileReader} and the tailer's
 * {@link TailedFile}) and {@link LineIngestor} with every parser of {@link
 * ParserRegistry#defaults()}: huge lines (MBs), binary and invalid UTF-8, out-of-range numbers,
 * metric lines cut in half, between valid lines of every engine family. Nothing throws; no line
 * handed on is longer than the max line length (memory stays bounded); an over-long line is
 * dead-lettered {@code LineTooLong} with its head; a corrupted metric line is dead-lettered, never
 * dropped as "not a metric line" nor turned into an event; valid lines still become events; both
 * readers see exactly the lines written, at the same offsets.
 */
class HostileInputProperties {

  private static final int MAX = 64 * 1024;

  /** What the ingestor must make of a line. */
  enum Expect {
    EVENT,
    DEAD,
    DEAD_TOO_LONG,
    NO_THROW
  }

  record Piece(byte[] bytes, Expect expect, String what) {
    @Override
    public String toString() {
      return what + " (" + bytes.length + " bytes, expect " + expect + ")";
    }
  }

  /**
   * One metric line per family, with one field that the corruptions replace and the marker that
   * makes its parser claim the line.
   */
  record Template(String before, String value, String after, boolean integer, String marker) {
    String line() {
      return before + value + after;
    }

    /** Byte index just past the marker: a cut line keeps at least this much. */
    int markerEnd() {
      return line().indexOf(marker) + marker.length();
    }
  }

  private static final List<Template> TEMPLATES =
      List.of(
          new Template(
              "[2025-10-20 09:01:24 TP0] Decode batch. #running-req: ",
              "3",
              ", #token: 1226, token usage: 0.00, accept len: 1.90, accept rate: 0.45, cuda graph:"
                  + " False, gen throughput (token/s): 59.80, #queue-req: 0, ",
              true,
              "Decode batch"),
          new Template(
              "[2025-10-20 09:01:24 TP0] Decode batch. #running-req: 3, #token: ",
              "1226",
              ", token usage: 0.00, accept len: 1.90, cuda graph: False, gen throughput (token/s):"
                  + " 59.80, #queue-req: 0, ",
              true,
              "Decode batch"),
          new Template(
              "[2025-10-20 09:01:24 TP0] Decode batch. #running-req: 3, #token: 1226, token usage:"
                  + " 0.00, accept len: 1.90, cuda graph: False, gen throughput (token/s): ",
              "59.80",
              ", #queue-req: 0, ",
              false,
              "Decode batch"),
          new Template(
              "INFO 06-06 14:20:34 [loggers.py:116] SpecDecoding metrics: Mean acceptance length:"
                  + " 2.50, Accepted throughput: 150.00 tokens/s, Drafted throughput: 300.00"
                  + " tokens/s, Accepted: ",
              "1500",
              " tokens, Drafted: 3000 tokens, Per-position acceptance rate: 0.700, 0.500, 0.300,"
                  + " Avg Draft acceptance rate: 50.0%",
              true,
              "SpecDecoding metrics:"),
          new Template(
              "INFO 08-01 10:00:00 metrics.py:367] Speculative metrics: Draft acceptance rate:"
                  + " 0.600, System efficiency: 0.400, Number of speculative tokens: 4, Number of"
                  + " accepted tokens: ",
              "2400",
              ", Number of draft tokens: 4000, Number of emitted tokens: 3000.",
              true,
              "Speculative metrics:"),
          new Template(
              "{\"iter\": 120, \"iterLatencyMS\": 30.0, \"numActiveRequests\": ",
              "4",
              ", \"numQueuedRequests\": 0, \"specDecodingStats\": {\"numDraftTokens\": 12,"
                  + " \"numAcceptedTokens\": 6, \"numRequestsWithDraftTokens\": 4,"
                  + " \"acceptanceLength\": 2.5, \"iterLatencyMS\": 6.0}}",
              true,
              "\"iterLatencyMS\""),
          new Template(
              "{\"ts\":\"2026-03-01T12:00:00Z\",\"request_id\":\"req-1\",\"output_tokens\":",
              "300",
              ",\"verify_cycles\":120,\"accepted_tokens\":180}",
              true,
              "\"verify_cycles\""));

  /** Values no field may take: garbage, broken UTF-8, out of range for the field's type. */
  private static final List<byte[]> BAD_FOR_ALL =
      List.of(
          bytes("1.2.3"),
          bytes("0x10"),
          bytes("--5"),
          bytes("1e999"),
          bytes("Infinity"),
          new byte[] {(byte) 0xC3, (byte) 0x28}, // invalid UTF-8
          new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 1},
          new byte[] {'4', 0, '2'});

  private static final List<byte[]> BAD_FOR_INTEGERS =
      List.of(bytes("99999999999999999999999"), bytes("-1"), bytes("2.5"));

  private final List<Path> files = new ArrayList<>();

  @AfterProperty
  void deleteFiles() throws IOException {
    for (Path f : files) {
      Files.deleteIfExists(f);
    }
    files.clear();
  }

  @Property(tries = 60)
  void hostileFilesNeverThrowStayBoundedAndDeadLetterWhatLooksLikeAMetric(
      @ForAll("files") List<Piece> pieces) throws IOException {
    Path file = Files.createTempFile("hostile", ".log");
    files.add(file);
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (Piece p : pieces) {
      all.write(p.bytes());
      all.write('\n');
    }
    Files.write(file, all.toByteArray());

    List<SourceLine> whole = new ArrayList<>();
    LogFileReader.forEachLine(file, MAX, whole::add);
    List<SourceLine> tailed = new ArrayList<>();
    try (TailedFile tf = new TailedFile(file, MAX)) {
      assertThat(tf.open(Optional.empty())).isTrue();
      for (List<TailedFile.ReadLine> got = tf.poll(7); !got.isEmpty(); got = tf.poll(7)) {
        got.forEach(r -> tailed.add(r.line()));
      }
    }
    assertThat(whole).hasSameSizeAs(pieces);
    assertThat(tailed).hasSameSizeAs(pieces);

    LineIngestor ingestor =
        new LineIngestor(
            new SourceContext("dep-hostile", "gpu-hostile", file.toString(), "fp"),
            NormaliseConfig.defaults(),
            ParserRegistry.defaults(),
            Clock.fixed(Instant.parse("2026-11-30T17:00:00Z"), ZoneOffset.UTC));
    long offset = 0;
    for (int i = 0; i < pieces.size(); i++) {
      Piece p = pieces.get(i);
      SourceLine w = whole.get(i);
      SourceLine t = tailed.get(i);
      String where = "line " + (i + 1) + ": " + p;
      // both readers, same line, same place; never more than MAX bytes held
      assertThat(w.offset()).as(where).isEqualTo(offset);
      assertThat(t.offset()).as(where).isEqualTo(offset);
      assertThat(w.length()).as(where).isEqualTo(p.bytes().length);
      assertThat(t.length()).as(where).isEqualTo(p.bytes().length);
      assertThat(w.bytes()).as(where).hasSizeLessThanOrEqualTo(MAX).isEqualTo(t.bytes());
      assertThat(w.bytes())
          .as(where)
          .isEqualTo(Arrays.copyOf(p.bytes(), Math.min(MAX, p.bytes().length)));
      offset += p.bytes().length + 1;

      IngestOutcome outcome = ingestor.ingest(w); // must not throw
      switch (p.expect()) {
        case EVENT -> {
          // a first event may come with the run context it is stamped with (Many)
          List<IngestOutcome> parts =
              outcome instanceof IngestOutcome.Many many ? many.parts() : List.of(outcome);
          assertThat(parts)
              .as(where)
              .anyMatch(
                  o -> o instanceof IngestOutcome.Event || o instanceof IngestOutcome.Request);
        }
        case DEAD -> {
          assertThat(outcome).as(where).isInstanceOf(IngestOutcome.Dead.class);
          DeadLetter d = ((IngestOutcome.Dead) outcome).deadLetter();
          assertThat(d.getRaw()).as(where).isEqualTo(ByteBuffer.wrap(p.bytes()));
          assertThat(d.getLineNumber()).as(where).isEqualTo(i + 1L);
        }
        case DEAD_TOO_LONG -> {
          assertThat(outcome).as(where).isInstanceOf(IngestOutcome.Dead.class);
          DeadLetter d = ((IngestOutcome.Dead) outcome).deadLetter();
          assertThat(d.getErrorClass()).isEqualTo(LineIngestor.LINE_TOO_LONG);
          assertThat(d.getErrorMessage()).contains(Long.toString(p.bytes().length));
          assertThat(d.getRaw().remaining()).isEqualTo(MAX);
          assertThat(d.getOffset()).isEqualTo(w.offset());
        }
        case NO_THROW -> assertThat(outcome).as(where).isNotNull();
      }
    }
  }

  @Provide
  Arbitrary<List<Piece>> files() {
    Arbitrary<Piece> piece =
        Arbitraries.frequencyOf(
            Tuple.of(4, valid()),
            Tuple.of(4, corrupted()),
            Tuple.of(3, cutInHalf()),
            Tuple.of(3, binary()),
            Tuple.of(1, huge()));
    return piece.list().ofMinSize(1).ofMaxSize(25);
  }

  private static Arbitrary<Template> template() {
    return Arbitraries.of(TEMPLATES);
  }

  private static Arbitrary<Piece> valid() {
    return template().map(t -> new Piece(bytes(t.line()), Expect.EVENT, "valid " + t.before()));
  }

  private static Arbitrary<Piece> corrupted() {
    return template()
        .flatMap(
            t -> {
              List<byte[]> bad = new ArrayList<>(BAD_FOR_ALL);
              if (t.integer()) {
                bad.addAll(BAD_FOR_INTEGERS);
              }
              return Arbitraries.of(bad)
                  .map(
                      v ->
                          new Piece(
                              concat(bytes(t.before()), v, bytes(t.after())),
                              Expect.DEAD,
                              "corrupted '" + new String(v, StandardCharsets.ISO_8859_1) + "'"));
            });
  }

  private static Arbitrary<Piece> cutInHalf() {
    return Combinators.combine(template(), Arbitraries.doubles().between(0.4, 0.6))
        .as(
            (t, at) -> {
              byte[] line = bytes(t.line());
              int cut =
                  Math.min(line.length - 1, Math.max(t.markerEnd(), (int) (line.length * at)));
              return new Piece(Arrays.copyOf(line, cut), Expect.DEAD, "cut at " + cut);
            });
  }

  /** Arbitrary bytes without a newline, sometimes behind a metric family's marker. */
  private static Arbitrary<Piece> binary() {
    Arbitrary<byte[]> noise =
        Arbitraries.bytes().filter(b -> b != '\n').array(byte[].class).ofMaxSize(400);
    Arbitrary<String> marker =
        Arbitraries.of(
            "",
            "[2025-10-20 09:01:24 TP0] Decode batch. ",
            "INFO 06-06 14:20:34 [loggers.py:116] SpecDecoding metrics: ",
            "Speculative metrics: ",
            "{\"iterLatencyMS\": ",
            "{\"verify_cycles\":");
    return Combinators.combine(marker, noise)
        .as((m, n) -> new Piece(concat(bytes(m), n), Expect.NO_THROW, "binary after '" + m + "'"));
  }

  /** Lines of MAX+1 bytes to a few MB, looking like a metric line or a huge JSON request. */
  private static Arbitrary<Piece> huge() {
    return Combinators.combine(template(), Arbitraries.integers().between(MAX + 1, 3 * 1024 * 1024))
        .as(
            (t, size) -> {
              byte[] head = bytes(t.line());
              byte[] line = Arrays.copyOf(head, size);
              Arrays.fill(line, head.length, line.length, (byte) 'x');
              return new Piece(line, Expect.DEAD_TOO_LONG, "huge " + t.before());
            });
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
