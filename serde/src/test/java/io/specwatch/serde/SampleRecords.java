package io.specwatch.serde;

import io.specwatch.schemas.DeadLetter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

/** Small, fully populated records for serde tests. */
final class SampleRecords {
  static final Instant FAILED_AT = Instant.parse("2026-03-14T02:16:14.123Z");

  private SampleRecords() {}

  static DeadLetter deadLetter() {
    return DeadLetter.newBuilder()
        .setStage("ingest.parse")
        .setSource("/var/log/sglang/tp0.log")
        .setHost("gpu-node-7")
        .setTopic(null)
        .setPartition(null)
        .setOffset(4096L)
        .setLineNumber(17L)
        .setFormat("sglang-decode-batch")
        .setErrorClass("ParseError")
        .setErrorMessage("accept len missing")
        .setFailedAt(FAILED_AT)
        .setRaw(ByteBuffer.wrap("Decode batch. #running-req: 3".getBytes(StandardCharsets.UTF_8)))
        .setContext(Map.of("parser", "v1"))
        .build();
  }
}
