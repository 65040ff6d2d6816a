package io.specwatch.ingest.parse.sglang;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.ParserRegistry;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class SglangDecodeBatchParserTest {

  private final SglangDecodeBatchParser parser = new SglangDecodeBatchParser();

  private SglangDecodeBatch parsed(String line) {
    ParseResult r = parser.parse(line);
    assertThat(r).isInstanceOf(ParseResult.Parsed.class);
    return (SglangDecodeBatch) ((ParseResult.Parsed) r).line();
  }

  private String failure(String line) {
    ParseResult r = parser.parse(line);
    assertThat(r).isInstanceOf(ParseResult.Failed.class);
    assertThat(((ParseResult.Failed) r).format()).isEqualTo("sglang.decode_batch");
    return ((ParseResult.Failed) r).reason();
  }

  @Test
  void aPrintedFieldWithoutValueIsAFailureNotAnAbsentField() {
    // found by the fault suite (PipelineFaultIT, hostile lines): binary bytes after "accept len: "
    // starting with ',' left the field empty, and the line became an event without acceptance
    assertThat(
            failure(
                "[2025-03-14 02:16:14 TP0] Decode batch. #running-req: 3, #token: 4410, token usage:"
                    + " 0.02, accept len: ,\u00ff\u00fe|7, gen throughput (token/s): 183.27, #queue-req: 1, "))
        .isEqualTo("field 'accept len' has no value");
    assertThat(
            failure(
                "[2025-03-14 02:16:14 TP0] Decode batch. #running-req: 3, #token: , token usage:"
                    + " 0.02, gen throughput (token/s): 183.27, #queue-req: 1, "))
        .isEqualTo("field '#token' has no value");
  }

  @Test
  void aLineTerminatorInsideTheLineIsAFailureNotAnAbsentField() {
    // found by the fault suite: a value holding NEL or U+2028 was kept as free text, so the
    // optional accept len read as absent and the line became an event without acceptance
    String head =
        "[2025-03-14 02:16:14 TP0] Decode batch. #running-req: 3, #token: 4410, token usage:";
    String tail = ", gen throughput (token/s): 183.27, #queue-req: 1, ";
    assertThat(failure(head + " 0.02, accept len: 2.\u00855" + tail))
        .startsWith("line terminator U+0085 inside the line at char ")
        .endsWith(": its field cannot be read");
    assertThat(failure(head + " 0.02, accept len: \u2028 2.5" + tail)).contains("U+2028");
    assertThat(failure(head + " 0.02, accept len: 2.5\u2029" + tail)).contains("U+2029");
    assertThat(failure(head + " 0.02, accept len: 2.\r5" + tail)).contains("U+000D");
    // in a name (the field is then unknown), in free text, in the prefix's rank
    assertThat(failure(head + " 0.02, accept\u2028len: 2.5" + tail)).contains("U+2028");
    assertThat(failure(head + " 0.02, accept len: 2.5" + tail + "MFU\u0085 31%"))
        .contains("U+0085");
    assertThat(failure(head.replace("TP0", "TP0\u0085") + " 0.02, accept len: 2.5" + tail))
        .contains("U+0085");
    // any other error of the line is reported first (reasons of existing dead letters unchanged)
    assertThat(failure(head + " 0.02, accept len: nan, x: \u2028" + tail))
        .isEqualTo("accept len is not a finite number: 'nan'");
    // the same line without the terminator is an event with its acceptance
    assertThat(parsed(head + " 0.02, accept len: 2.5" + tail).acceptLength()).isEqualTo(2.5);
  }

  @Test
  void utf8BytesOfNelAndLineSeparatorInAShippedLineAreDeadLettered() {
    // the file splitter breaks at LF only: C2 85 (NEL) and E2 80 A8 (U+2028) stay in the line
    ParserRegistry registry = ParserRegistry.defaults();
    for (byte[] terminator :
        new byte[][] {
          {(byte) 0xc2, (byte) 0x85}, {(byte) 0xe2, (byte) 0x80, (byte) 0xa8},
          {(byte) 0xe2, (byte) 0x80, (byte) 0xa9}, {'\r'}
        }) {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      bytes.writeBytes(
          ("[2025-03-14 02:16:14 TP0] Decode batch. #running-req: 3, #token: 4410, token usage:"
                  + " 0.02, accept len: 2.")
              .getBytes(java.nio.charset.StandardCharsets.UTF_8));
      bytes.writeBytes(terminator);
      bytes.writeBytes(
          "5, gen throughput (token/s): 183.27, #queue-req: 1, "
              .getBytes(java.nio.charset.StandardCharsets.UTF_8));
      byte[] raw = bytes.toByteArray();
      String text = io.specwatch.ingest.ship.SourceLine.of(1, 0, raw, raw.length).text();
      assertThat(registry.parse(text))
          .as(java.util.HexFormat.of().formatHex(terminator))
          .isInstanceOf(ParseResult.Failed.class);
    }
  }

  @Test
  void early2025() {
    SglangDecodeBatch b =
        parsed(
            "[2025-03-14 02:16:14 TP0] Decode batch. #running-req: 3, #token: 4410, token usage:"
                + " 0.02, accept len: 2.51, gen throughput (token/s): 183.27, #queue-req: 1, ");
    assertThat(b.prefix().timestamp()).isEqualTo(LocalDateTime.of(2025, 3, 14, 2, 16, 14));
    assertThat(b.prefix().tpRank()).isZero();
    assertThat(b.runningRequests()).isEqualTo(3);
    assertThat(b.tokens()).isEqualTo(4410L);
    assertThat(b.tokenUsage()).isEqualTo(0.02);
    assertThat(b.acceptLength()).isEqualTo(2.51);
    assertThat(b.acceptRate()).isNull();
    assertThat(b.graph()).isNull();
    assertThat(b.genThroughput()).isEqualTo(183.27);
    assertThat(b.queuedRequests()).isEqualTo(1);
    assertThat(b.preAllocatedUsage()).isNull();
    assertThat(b.rawFields())
        .containsEntry("#running-req", "3")
        .containsEntry("accept len", "2.51")
        .containsEntry("gen throughput (token/s)", "183.27")
        .hasSize(6);
  }

  @Test
  void mid2025WithCudaGraph() {
    SglangDecodeBatch b =
        parsed(
            "[2025-06-02 11:40:03 DP3 TP3] Decode batch. #running-req: 12, #token: 20480, token"
                + " usage: 0.10, accept len: 3.05, cuda graph: True, gen throughput (token/s):"
                + " 902.40, #queue-req: 0, ");
    assertThat(b.prefix().dpRank()).isEqualTo(3);
    assertThat(b.prefix().tpRank()).isEqualTo(3);
    assertThat(b.prefix().rank()).isEqualTo("DP3 TP3");
    assertThat(b.graph()).isTrue();
    assertThat(b.acceptLength()).isEqualTo(3.05);
    assertThat(b.genThroughput()).isEqualTo(902.40);
  }

  @Test
  void mid2025PdDecodeNode() {
    SglangDecodeBatch b =
        parsed(
            "[2025-07-09 08:00:01 TP0 EP0] Decode batch. #running-req: 64, #token: 90112, token"
                + " usage: 0.45, pre-allocated usage: 0.12, #retracted-req: 2, cuda graph: False,"
                + " gen throughput (token/s): 2100.55, #queue-req: 5, ");
    assertThat(b.prefix().epRank()).isZero();
    assertThat(b.preAllocatedUsage()).isEqualTo(0.12);
    assertThat(b.retractedRequests()).isEqualTo(2);
    assertThat(b.graph()).isFalse();
    assertThat(b.acceptLength()).isNull();
    assertThat(b.queuedRequests()).isEqualTo(5);
  }

  @Test
  void october2025WithAcceptRate() {
    SglangDecodeBatch b =
        parsed(
            "[2025-10-20 09:01:11 TP0] Decode batch. #running-req: 1, #token: 459, token usage:"
                + " 0.00, accept len: 1.89, accept rate: 0.44, cuda graph: False, gen throughput"
                + " (token/s): 59.71, #queue-req: 0, ");
    assertThat(b.acceptLength()).isEqualTo(1.89);
    assertThat(b.acceptRate()).isEqualTo(0.44);
    assertThat(b.rawFields()).containsEntry("accept rate", "0.44");
  }

  @Test
  void variant2026CommaForwardCtNpuGraphAndExtraFields() {
    SglangDecodeBatch b =
        parsed(
            "[2026-04-05 20:02:51] Decode batch [18240], #running-req: 8, #full token: 3000,"
                + " full token usage: 0.05, #swa token: 900, swa token usage: 0.02, #token: 3900,"
                + " token usage: 0.05, accept len: 2.20, accept rate: 0.60, npu graph: True, gen"
                + " throughput (token/s): 512.00, #queue-req: 0, MFU 31.5%");
    assertThat(b.prefix().rank()).isNull();
    assertThat(b.forwardCt()).isEqualTo(18240L);
    assertThat(b.graph()).isTrue();
    assertThat(b.tokens()).isEqualTo(3900L);
    assertThat(b.rawFields())
        .containsEntry("forward_ct", "18240")
        .containsEntry("swa token usage", "0.02")
        .containsEntry("_text", "MFU 31.5%");
  }

  @Test
  void noPrefix() {
    SglangDecodeBatch b =
        parsed(
            "Decode batch, #running-req: 2, #token: 10, token usage: 0.00, gen throughput"
                + " (token/s): 160.00, #queue-req: 0");
    assertThat(b.prefix().timestamp()).isNull();
    assertThat(b.runningRequests()).isEqualTo(2);
  }

  @Test
  void otherLinesAreNotMetrics() {
    assertThat(
            parser.parse(
                "[2025-10-20 09:01:10 TP0] Prefill batch. #new-seq: 1, #new-token: 383, "
                    + "#cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0, "))
        .isInstanceOf(ParseResult.NotMetric.class);
    assertThat(
            parser.parse(
                "[2025-10-20 09:01:06] INFO:     127.0.0.1:39902 - \"GET /health HTTP/1.1\" 200"))
        .isInstanceOf(ParseResult.NotMetric.class);
    assertThat(new ParserRegistry(java.util.List.of(parser)).parse(""))
        .isInstanceOf(ParseResult.NotMetric.class);
  }

  @Test
  void nanIsAFailureNamingTheField() {
    assertThat(
            failure(
                "[2025-10-20 09:05:03 TP0] Decode batch. #running-req: 1, #token: 1797, token"
                    + " usage: 0.00, accept len: nan, accept rate: nan, cuda graph: False, gen"
                    + " throughput (token/s): 56.70, #queue-req: 0, "))
        .isEqualTo("accept len is not a finite number: 'nan'");
  }

  @Test
  void truncatedLineIsAFailure() {
    assertThat(
            failure(
                "[2025-10-20 09:02:22 TP0] Decode batch. #running-req: 1, #token: 1930, token"
                    + " usage: 0.00, accept len: 1.93, accept rate: "))
        .isEqualTo("missing field 'gen throughput (token/s)'");
  }

  @Test
  void badValuesAreFailures() {
    assertThat(
            failure(
                "Decode batch. #running-req: x, #token: 1, token usage: 0.1, gen throughput"
                    + " (token/s): 1.0, #queue-req: 0"))
        .isEqualTo("#running-req is not an integer: 'x'");
    assertThat(
            failure(
                "Decode batch. #running-req: 1, #token: 1, token usage: 0.1, cuda graph: maybe,"
                    + " gen throughput (token/s): 1.0, #queue-req: 0"))
        .isEqualTo("cuda graph is not True/False: 'maybe'");
    assertThat(
            failure(
                "Decode batch. #running-req: 1, #running-req: 2, #token: 1, token usage: 0.1,"
                    + " gen throughput (token/s): 1.0, #queue-req: 0"))
        .isEqualTo("duplicate field '#running-req'");
    assertThat(failure("Decode batch")).isEqualTo("no field list after 'Decode batch'");
  }
}
