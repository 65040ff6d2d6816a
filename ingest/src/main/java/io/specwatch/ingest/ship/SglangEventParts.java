package io.specwatch.ingest.ship;

import io.specwatch.ingest.parse.RawFields;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The DecodeEvent of one SGLang {@code Decode batch} line written ahead as Avro bytes by {@link
 * SglangEventWriter} on a parse thread, without the five values that need the source's state or the
 * sending time: {@code eventTime} (a line without a printed time takes the ingest time), {@code
 * ingestTime}, {@code intervalMs}, {@code cycleMs} and {@code runContextId}. {@link #assemble}
 * writes the record with them in between, the same bytes as {@link DecodeEventEncoder} writes for
 * the event the normaliser builds from the line ({@code SglangEventPartsProperties}).
 */
public final class SglangEventParts {

  /** The event's fields in schema order up to specEnabled, the four missing ones left out. */
  private final byte[] body;

  /** The last field, rawFields (the parser's encoding, shared): after runContextId. */
  private final byte[] rawFields;

  private final int beforeTimes; // the end of kind: eventTime and ingestTime go here
  private final int beforeInterval; // the end of promptCategory: intervalMs goes here
  private final int beforeCycle; // the end of overheadMs: cycleMs goes here
  private final Instant printed;
  private final String rankKey;

  SglangEventParts(
      byte[] body,
      byte[] rawFields,
      int beforeTimes,
      int beforeInterval,
      int beforeCycle,
      Instant printed,
      String rankKey) {
    this.body = body;
    this.rawFields = rawFields;
    this.beforeTimes = beforeTimes;
    this.beforeInterval = beforeInterval;
    this.beforeCycle = beforeCycle;
    this.printed = printed;
    this.rankKey = rankKey;
  }

  /** The line's printed time in the log zone, or null when it had none. */
  public Instant printed() {
    return printed;
  }

  /** The line's rank key ({@link io.specwatch.ingest.parse.LinePrefix#rankKey}). */
  public String rankKey() {
    return rankKey;
  }

  /**
   * The event in the Confluent wire format with {@code schemaId}; {@code context} is the encoded
   * {@code ["null", "string"]} union of the run context id.
   */
  byte[] assemble(
      int schemaId,
      long eventTimeMs,
      long ingestTimeMs,
      Double intervalMs,
      Double cycleMs,
      byte[] context) {
    int size =
        5
            + body.length
            + AvroOut.varLongSize(eventTimeMs)
            + AvroOut.varLongSize(ingestTimeMs)
            + (intervalMs == null ? 1 : 9)
            + (cycleMs == null ? 1 : 9)
            + context.length
            + rawFields.length;
    byte[] out = new byte[size];
    out[1] = (byte) (schemaId >>> 24); // out[0], the magic byte, is 0
    out[2] = (byte) (schemaId >>> 16);
    out[3] = (byte) (schemaId >>> 8);
    out[4] = (byte) schemaId;
    int pos = 5;
    System.arraycopy(body, 0, out, pos, beforeTimes);
    pos += beforeTimes;
    pos = RawFields.writeVarLong(out, pos, eventTimeMs);
    pos = RawFields.writeVarLong(out, pos, ingestTimeMs);
    pos = copy(beforeTimes, beforeInterval, out, pos);
    pos = optDouble(intervalMs, out, pos);
    pos = copy(beforeInterval, beforeCycle, out, pos);
    pos = optDouble(cycleMs, out, pos);
    pos = copy(beforeCycle, body.length, out, pos);
    System.arraycopy(context, 0, out, pos, context.length);
    pos += context.length;
    System.arraycopy(rawFields, 0, out, pos, rawFields.length);
    return out;
  }

  /** The null branch: no run context. Shared (assemble only reads it). */
  private static final byte[] NO_CONTEXT = {0};

  /**
   * The {@code ["null", "string"]} union of a run context id as {@link #assemble} takes it; callers
   * only read it.
   */
  static byte[] contextField(String runContextId) {
    if (runContextId == null) {
      return NO_CONTEXT; // a run without run context: no array per event
    }
    byte[] utf8 = runContextId.getBytes(StandardCharsets.UTF_8);
    byte[] field = new byte[1 + AvroOut.varLongSize(utf8.length) + utf8.length];
    field[0] = 2;
    int pos = RawFields.writeVarLong(field, 1, utf8.length);
    System.arraycopy(utf8, 0, field, pos, utf8.length);
    return field;
  }

  private int copy(int from, int to, byte[] out, int pos) {
    System.arraycopy(body, from, out, pos, to - from);
    return pos + to - from;
  }

  private static int optDouble(Double v, byte[] out, int pos) {
    if (v == null) {
      return pos + 1; // the null branch, 0
    }
    out[pos] = 2;
    return AvroOut.writeDouble(out, pos + 1, v);
  }
}
