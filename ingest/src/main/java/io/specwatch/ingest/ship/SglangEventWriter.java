package io.specwatch.ingest.ship;

import io.specwatch.ingest.normalise.DecodeEventNormaliser;
import io.specwatch.ingest.normalise.EventPlausibility;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.normalise.SourceContext;
import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.sglang.SglangDecodeBatch;
import io.specwatch.ingest.parse.sglang.SglangDecodeBatchParser;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Arrays;

/**
 * Writes the DecodeEvent of an SGLang {@code Decode batch} line straight to its Avro bytes, without
 * the {@code DecodeEvent}, its builder and its boxed values: {@link SglangEventParts}, which the
 * sending thread completes with the values that need the source's state. Stateless per line (a
 * parse thread of {@link LogFileShipper} calls it, or {@code tail}'s {@link LineIngestor}): the
 * fields are the ones {@link DecodeEventNormaliser} sets for the line, computed by the same
 * functions, and a line whose event would not pass {@link EventPlausibility} gets null, so that the
 * normaliser's way writes its dead letter. Not thread-safe: one per parse thread (it reuses its
 * buffer).
 */
final class SglangEventWriter {

  private static final int RANK = 0;
  private static final int DEFINITION = 1;

  private final NormaliseConfig config;
  private final String definition;

  /** deploymentId, host and source, the same for every line of the file. */
  private final byte[] sourceFields;

  /** engine, format and kind, the same for every line of the format. */
  private static final byte[] FORMAT_FIELDS;

  static {
    Out o = new Out();
    o.varLong(Engine.SGLANG.ordinal());
    o.string(SglangDecodeBatchParser.FORMAT);
    o.varLong(EventKind.INTERVAL.ordinal());
    FORMAT_FIELDS = Arrays.copyOf(o.buf, o.pos);
  }

  private final Out out = new Out();

  SglangEventWriter(SourceContext source, NormaliseConfig config) {
    this.config = config;
    this.definition = config.acceptRateDefinition().id();
    Out o = new Out();
    o.string(source.deploymentId());
    o.string(source.host());
    o.string(source.source());
    this.sourceFields = Arrays.copyOf(o.buf, o.pos);
  }

  /**
   * The parts of the line's event with id {@code eventId}, or null when the line must take the
   * normaliser's way (its event would be dead-lettered as implausible, or its raw fields cannot be
   * encoded).
   */
  SglangEventParts write(SglangDecodeBatch b, String eventId, SourceLine line) {
    Double tau = b.acceptLength();
    long passes = config.decodeLogInterval();
    long cycles = DecodeEventNormaliser.sglangCycles(config, b);
    long accepted = tau != null ? DecodeEventNormaliser.sglangAcceptedTokens(tau, cycles) : 0;
    long emitted = DecodeEventNormaliser.sglangEmittedTokens(tau, cycles);
    Double raw = b.acceptRate();
    Double rate = raw != null ? DecodeEventNormaliser.normalisedAcceptRate(config, raw, tau) : null;
    if (eventId == null
        || !EventPlausibility.sglangPlausible(
            tau,
            rate,
            b.genThroughput(),
            b.tokenUsage(),
            raw,
            passes,
            cycles,
            accepted,
            emitted,
            b.runningRequests(),
            b.queuedRequests())) {
      return null;
    }
    byte[] rawFields;
    try {
      rawFields = config.rawFields().of(b).avroBinary();
    } catch (RuntimeException e) {
      return null; // a null name or text: the encoder's fallback reports it
    }
    Out o = out;
    LinePrefix prefix = b.prefix();
    Instant printed = o.printed(prefix.timestamp(), config);
    o.pos = 0;
    o.ascii(eventId);
    o.bytes(sourceFields, 0, sourceFields.length);
    o.nonNull();
    o.varLong(line.offset());
    o.nonNull();
    o.varLong(line.lineNumber());
    o.bytes(FORMAT_FIELDS, 0, FORMAT_FIELDS.length);
    int beforeTimes = o.pos;
    o.optString(prefix.rank(), RANK);
    o.optInt(prefix.tpRank());
    o.optInt(prefix.dpRank());
    o.optInt(prefix.epRank());
    o.union(null); // requestId
    o.union(null); // promptCategory
    int beforeInterval = o.pos;
    o.nonNull();
    o.varLong(passes);
    o.nonNull();
    o.varLong(cycles);
    o.nonNull();
    o.varLong(b.runningRequests());
    o.nonNull();
    o.varLong(b.queuedRequests());
    o.nonNull();
    o.dbl(b.tokenUsage());
    o.optDouble(tau);
    o.optDouble(rate);
    o.optDouble(raw);
    o.optString(raw != null ? definition : null, DEFINITION);
    if (o.union(tau)) {
      o.varLong(accepted);
    }
    o.union(null); // draftedTokens
    o.nonNull();
    o.varLong(emitted);
    o.varLong(0); // perPositionAcceptance: empty
    o.varLong(0); // perPositionAccepted: empty
    o.nonNull();
    o.dbl(b.genThroughput());
    o.union(null); // draftMs
    o.union(null); // verifyMs
    o.union(null); // overheadMs
    int beforeCycle = o.pos;
    Boolean graph = b.graph();
    if (o.union(graph)) {
      o.bool(graph);
    }
    o.bool(tau != null); // specEnabled
    return new SglangEventParts(
        Arrays.copyOf(o.buf, o.pos),
        rawFields,
        beforeTimes,
        beforeInterval,
        beforeCycle,
        printed,
        o.rankKey(prefix.rankKey()));
  }

  /**
   * The buffer, the last printed time resolved (a second's lines share one) and the last rank key
   * (the sending thread looks each line's key up in a map: the same instance, its hash computed
   * once, costs it less than a new string written by another core).
   */
  private static final class Out extends AvroOut {
    private LocalDateTime lastTime;
    private Instant lastPrinted;
    private String lastRankKey = "";

    String rankKey(String key) {
      if (!key.equals(lastRankKey)) {
        lastRankKey = key;
      }
      return lastRankKey;
    }

    Out() {
      super(2);
    }

    Instant printed(LocalDateTime time, NormaliseConfig config) {
      if (time == null) {
        return null;
      }
      if (!time.equals(lastTime)) {
        lastPrinted = time.atZone(config.logZone()).toInstant();
        lastTime = time;
      }
      return lastPrinted;
    }
  }
}
