package io.specwatch.ingest.ship;

import io.specwatch.ingest.parse.RawFields;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.serde.DecodeEventLayout;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * A hand-written Avro binary encoder of {@link DecodeEvent} in the Confluent wire format (magic
 * byte, 4-byte schema id, body): the same bytes as {@code SpecificDatumWriter} with the generated
 * schema (checked by {@code DecodeEventEncoderProperties} over generated events, and at run time by
 * {@link FastEventSerializer} on the first event), at a fraction of its CPU (the generic writer's
 * per-field union resolution and schema lookups were ~15 % of the shipper). Field order follows
 * {@code DecodeEvent.avsc}; a schema change that this encoder does not follow is caught by the
 * property test and by the run-time self-check, which falls back to the generic writer.
 *
 * <p>Not thread-safe: one instance per thread (it reuses its buffer).
 */
public final class DecodeEventEncoder extends AvroOut {

  /** The schema field names this encoder writes, in order: compared with the schema at start. */
  static final List<String> FIELDS = DecodeEventLayout.FIELDS;

  // slots of string(s, slot): the last String instance written there and its encoding
  private static final int DEPLOYMENT = 0;
  private static final int HOST = 1;
  private static final int SOURCE = 2;
  private static final int FORMAT = 3;
  private static final int RANK = 4;
  private static final int DEFINITION = 5;
  private static final int CONTEXT = 6;

  public DecodeEventEncoder() {
    super(7);
  }

  /** Whether the generated schema still has exactly the fields this encoder writes, in order. */
  public static boolean matchesSchema() {
    return DecodeEvent.getClassSchema().getFields().stream()
        .map(f -> f.name())
        .toList()
        .equals(FIELDS);
  }

  /**
   * The event in the Confluent wire format with {@code schemaId}.
   *
   * @throws NullPointerException when a non-nullable field is null (the generic writer reports it)
   */
  public byte[] encode(int schemaId, DecodeEvent e) {
    pos = 0;
    header(schemaId);
    string(e.getEventId());
    string(e.getDeploymentId(), DEPLOYMENT);
    string(e.getHost(), HOST);
    string(e.getSource(), SOURCE);
    optLong(e.getSourceOffset());
    optLong(e.getLineNumber());
    varLong(e.getEngine().ordinal());
    string(e.getFormat(), FORMAT);
    varLong(e.getKind().ordinal());
    instant(e.getEventTime());
    instant(e.getIngestTime());
    optString(e.getRank(), RANK);
    optInt(e.getTpRank());
    optInt(e.getDpRank());
    optInt(e.getEpRank());
    optString(e.getRequestId(), -1);
    optString(e.getPromptCategory(), -1);
    optDouble(e.getIntervalMs());
    optLong(e.getDecodePasses());
    optLong(e.getCycles());
    optInt(e.getRunningRequests());
    optInt(e.getQueuedRequests());
    optDouble(e.getTokenUsage());
    optDouble(e.getAcceptLength());
    optDouble(e.getAcceptRate());
    optDouble(e.getRawAcceptRate());
    optString(e.getRawAcceptRateDefinition(), DEFINITION);
    optLong(e.getAcceptedTokens());
    optLong(e.getDraftedTokens());
    optLong(e.getEmittedTokens());
    List<Double> acceptance = e.getPerPositionAcceptance();
    if (!acceptance.isEmpty()) {
      varLong(acceptance.size());
      for (Double d : acceptance) {
        dbl(d);
      }
    }
    varLong(0);
    List<Long> accepted = e.getPerPositionAccepted();
    if (!accepted.isEmpty()) {
      varLong(accepted.size());
      for (Long l : accepted) {
        varLong(l);
      }
    }
    varLong(0);
    optDouble(e.getGenThroughputTokS());
    optDouble(e.getDraftMs());
    optDouble(e.getVerifyMs());
    optDouble(e.getOverheadMs());
    optDouble(e.getCycleMs());
    Boolean graph = e.getCudaGraph();
    if (graph == null) {
      varLong(0);
    } else {
      varLong(1);
      bool(graph);
    }
    bool(e.getSpecEnabled());
    optString(e.getRunContextId(), CONTEXT);
    // a parser's RawFields carries its encoding, computed once (usually on a parsing thread of
    // LogFileShipper); other maps (scrape, generate) are encoded through a copy
    byte[] raw = RawFields.copyOf(e.getRawFields()).avroBinary();
    bytes(raw, 0, raw.length);
    return Arrays.copyOf(buf, pos);
  }

  private void instant(Instant t) {
    varLong(t.toEpochMilli());
  }
}
