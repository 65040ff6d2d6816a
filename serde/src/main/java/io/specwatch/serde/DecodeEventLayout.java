package io.specwatch.serde;

import java.util.List;

/**
 * The fields of {@code DecodeEvent.avsc}, in schema order, that the hand-written codecs of the
 * decode-events topic are written against (the shipper's encoder in ingest, streams-app's decoder).
 * Each codec compares this list with the generated class's schema at start and falls back to Avro's
 * generic writer or reader when they differ, so a schema change that a codec does not follow is
 * never encoded or decoded by it.
 */
public final class DecodeEventLayout {

  /** The field names in schema order. */
  public static final List<String> FIELDS =
      List.of(
          "eventId",
          "deploymentId",
          "host",
          "source",
          "sourceOffset",
          "lineNumber",
          "engine",
          "format",
          "kind",
          "eventTime",
          "ingestTime",
          "rank",
          "tpRank",
          "dpRank",
          "epRank",
          "requestId",
          "promptCategory",
          "intervalMs",
          "decodePasses",
          "cycles",
          "runningRequests",
          "queuedRequests",
          "tokenUsage",
          "acceptLength",
          "acceptRate",
          "rawAcceptRate",
          "rawAcceptRateDefinition",
          "acceptedTokens",
          "draftedTokens",
          "emittedTokens",
          "perPositionAcceptance",
          "perPositionAccepted",
          "genThroughputTokS",
          "draftMs",
          "verifyMs",
          "overheadMs",
          "cycleMs",
          "cudaGraph",
          "specEnabled",
          "runContextId",
          "rawFields");

  private DecodeEventLayout() {}
}
