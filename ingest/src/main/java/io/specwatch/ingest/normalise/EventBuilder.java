package io.specwatch.ingest.normalise;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import io.specwatch.serde.DecodeEventLayout;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * Builds the normalisers' {@link DecodeEvent}s like {@link DecodeEvent.Builder}, without its per
 * field validation, set flags and per build default lookups (a deep copy of each unset field's
 * default from the schema, ~8 % of the shipper's sending thread): the same setters, and {@link
 * #build} calls the all-fields constructor with the schema's defaults for the fields not set (null,
 * {@code specEnabled} true, empty lists and map; a field with a default keeps a null it is set to,
 * as Avro's builder keeps it). Where Avro's builder throws (a null for a field without default,
 * such a field not set), this one lets Avro's builder throw the same exception. {@code
 * EventBuilderProperties} checks equal events and equal exceptions.
 */
final class EventBuilder {

  private String eventId;
  private String deploymentId;
  private String host;
  private String source;
  private Long sourceOffset;
  private Long lineNumber;
  private Engine engine;
  private String format;
  private EventKind kind;
  private Instant eventTime;
  private Instant ingestTime;
  private String rank;
  private Integer tpRank;
  private Integer dpRank;
  private Integer epRank;
  private String requestId;
  private String promptCategory;
  private Double intervalMs;
  private Long decodePasses;
  private Long cycles;
  private Integer runningRequests;
  private Integer queuedRequests;
  private Double tokenUsage;
  private Double acceptLength;
  private Double acceptRate;
  private Double rawAcceptRate;
  private String rawAcceptRateDefinition;
  private Long acceptedTokens;
  private Long draftedTokens;
  private Long emittedTokens;
  private List<Double> perPositionAcceptance = List.of();
  private List<Long> perPositionAccepted = List.of();
  private Double genThroughputTokS;
  private Double draftMs;
  private Double verifyMs;
  private Double overheadMs;
  private Double cycleMs;
  private Boolean cudaGraph;
  private Boolean specEnabled = true;
  private String runContextId;
  private Map<String, String> rawFields = Map.of();

  EventBuilder setEventId(String value) {
    if (value == null) {
      DecodeEvent.newBuilder().setEventId(null); // throws Avro's exception for this field
    }
    this.eventId = value;
    return this;
  }

  EventBuilder setDeploymentId(String value) {
    if (value == null) {
      DecodeEvent.newBuilder().setDeploymentId(null); // throws Avro's exception for this field
    }
    this.deploymentId = value;
    return this;
  }

  EventBuilder setHost(String value) {
    if (value == null) {
      DecodeEvent.newBuilder().setHost(null); // throws Avro's exception for this field
    }
    this.host = value;
    return this;
  }

  EventBuilder setSource(String value) {
    if (value == null) {
      DecodeEvent.newBuilder().setSource(null); // throws Avro's exception for this field
    }
    this.source = value;
    return this;
  }

  EventBuilder setSourceOffset(Long value) {
    this.sourceOffset = value;
    return this;
  }

  EventBuilder setLineNumber(Long value) {
    this.lineNumber = value;
    return this;
  }

  EventBuilder setEngine(Engine value) {
    if (value == null) {
      DecodeEvent.newBuilder().setEngine(null); // throws Avro's exception for this field
    }
    this.engine = value;
    return this;
  }

  EventBuilder setFormat(String value) {
    if (value == null) {
      DecodeEvent.newBuilder().setFormat(null); // throws Avro's exception for this field
    }
    this.format = value;
    return this;
  }

  EventBuilder setKind(EventKind value) {
    if (value == null) {
      DecodeEvent.newBuilder().setKind(null); // throws Avro's exception for this field
    }
    this.kind = value;
    return this;
  }

  EventBuilder setEventTime(Instant value) {
    if (value == null) {
      DecodeEvent.newBuilder().setEventTime(null); // throws Avro's exception for this field
    }
    this.eventTime = value;
    return this;
  }

  EventBuilder setIngestTime(Instant value) {
    if (value == null) {
      DecodeEvent.newBuilder().setIngestTime(null); // throws Avro's exception for this field
    }
    this.ingestTime = value;
    return this;
  }

  EventBuilder setRank(String value) {
    this.rank = value;
    return this;
  }

  EventBuilder setTpRank(Integer value) {
    this.tpRank = value;
    return this;
  }

  EventBuilder setDpRank(Integer value) {
    this.dpRank = value;
    return this;
  }

  EventBuilder setEpRank(Integer value) {
    this.epRank = value;
    return this;
  }

  EventBuilder setRequestId(String value) {
    this.requestId = value;
    return this;
  }

  EventBuilder setPromptCategory(String value) {
    this.promptCategory = value;
    return this;
  }

  EventBuilder setIntervalMs(Double value) {
    this.intervalMs = value;
    return this;
  }

  EventBuilder setDecodePasses(Long value) {
    this.decodePasses = value;
    return this;
  }

  EventBuilder setCycles(Long value) {
    this.cycles = value;
    return this;
  }

  EventBuilder setRunningRequests(Integer value) {
    this.runningRequests = value;
    return this;
  }

  EventBuilder setQueuedRequests(Integer value) {
    this.queuedRequests = value;
    return this;
  }

  EventBuilder setTokenUsage(Double value) {
    this.tokenUsage = value;
    return this;
  }

  EventBuilder setAcceptLength(Double value) {
    this.acceptLength = value;
    return this;
  }

  EventBuilder setAcceptRate(Double value) {
    this.acceptRate = value;
    return this;
  }

  EventBuilder setRawAcceptRate(Double value) {
    this.rawAcceptRate = value;
    return this;
  }

  EventBuilder setRawAcceptRateDefinition(String value) {
    this.rawAcceptRateDefinition = value;
    return this;
  }

  EventBuilder setAcceptedTokens(Long value) {
    this.acceptedTokens = value;
    return this;
  }

  EventBuilder setDraftedTokens(Long value) {
    this.draftedTokens = value;
    return this;
  }

  EventBuilder setEmittedTokens(Long value) {
    this.emittedTokens = value;
    return this;
  }

  EventBuilder setPerPositionAcceptance(List<Double> value) {
    this.perPositionAcceptance = value;
    return this;
  }

  EventBuilder setPerPositionAccepted(List<Long> value) {
    this.perPositionAccepted = value;
    return this;
  }

  EventBuilder setGenThroughputTokS(Double value) {
    this.genThroughputTokS = value;
    return this;
  }

  EventBuilder setDraftMs(Double value) {
    this.draftMs = value;
    return this;
  }

  EventBuilder setVerifyMs(Double value) {
    this.verifyMs = value;
    return this;
  }

  EventBuilder setOverheadMs(Double value) {
    this.overheadMs = value;
    return this;
  }

  EventBuilder setCycleMs(Double value) {
    this.cycleMs = value;
    return this;
  }

  EventBuilder setCudaGraph(Boolean value) {
    this.cudaGraph = value;
    return this;
  }

  EventBuilder setSpecEnabled(boolean value) {
    this.specEnabled = value;
    return this;
  }

  EventBuilder setRunContextId(String value) {
    this.runContextId = value;
    return this;
  }

  EventBuilder setRawFields(Map<String, String> value) {
    this.rawFields = value;
    return this;
  }

  /**
   * Whether the generated {@code DecodeEvent} has exactly the fields this builder sets, in order
   * ({@link DecodeEventLayout}): only then is its all-fields constructor the one {@link #build}
   * calls. Another schema version on the class path (a v2 class ahead of the jar, as {@code
   * SchemaEvolutionFaultIT} runs the shipper) has another constructor; events are then built by
   * Avro's builder, which also fills the fields this one does not know with their defaults.
   */
  static final boolean SAME_SCHEMA =
      DecodeEvent.getClassSchema().getFields().stream()
          .map(Schema.Field::name)
          .toList()
          .equals(DecodeEventLayout.FIELDS);

  /** The event; throws what Avro's builder throws when a field without default was not set. */
  DecodeEvent build() {
    if (!SAME_SCHEMA
        || eventId == null
        || deploymentId == null
        || host == null
        || source == null
        || engine == null
        || format == null
        || kind == null
        || eventTime == null
        || ingestTime == null) {
      return buildWithAvroBuilder(); // throws for the first field not set, as Avro's builder does
    }
    return new DecodeEvent(
        eventId,
        deploymentId,
        host,
        source,
        sourceOffset,
        lineNumber,
        engine,
        format,
        kind,
        eventTime,
        ingestTime,
        rank,
        tpRank,
        dpRank,
        epRank,
        requestId,
        promptCategory,
        intervalMs,
        decodePasses,
        cycles,
        runningRequests,
        queuedRequests,
        tokenUsage,
        acceptLength,
        acceptRate,
        rawAcceptRate,
        rawAcceptRateDefinition,
        acceptedTokens,
        draftedTokens,
        emittedTokens,
        perPositionAcceptance,
        perPositionAccepted,
        genThroughputTokS,
        draftMs,
        verifyMs,
        overheadMs,
        cycleMs,
        cudaGraph,
        specEnabled,
        runContextId,
        rawFields);
  }

  /**
   * The event built by Avro's builder from the same values (what {@link #build} gives for another
   * schema version; {@code EventBuilderProperties} checks it against {@link #build}).
   */
  DecodeEvent buildWithAvroBuilder() {
    DecodeEvent.Builder b = DecodeEvent.newBuilder();
    // the fields without a default are set only when not null: one left unset makes Avro's build()
    // throw, as Avro's builder did before this class (a null given to its setter would throw
    // sooner)
    if (eventId != null) {
      b.setEventId(eventId);
    }
    if (deploymentId != null) {
      b.setDeploymentId(deploymentId);
    }
    if (host != null) {
      b.setHost(host);
    }
    if (source != null) {
      b.setSource(source);
    }
    b.setSourceOffset(sourceOffset);
    b.setLineNumber(lineNumber);
    if (engine != null) {
      b.setEngine(engine);
    }
    if (format != null) {
      b.setFormat(format);
    }
    if (kind != null) {
      b.setKind(kind);
    }
    if (eventTime != null) {
      b.setEventTime(eventTime);
    }
    if (ingestTime != null) {
      b.setIngestTime(ingestTime);
    }
    b.setRank(rank);
    b.setTpRank(tpRank);
    b.setDpRank(dpRank);
    b.setEpRank(epRank);
    b.setRequestId(requestId);
    b.setPromptCategory(promptCategory);
    b.setIntervalMs(intervalMs);
    b.setDecodePasses(decodePasses);
    b.setCycles(cycles);
    b.setRunningRequests(runningRequests);
    b.setQueuedRequests(queuedRequests);
    b.setTokenUsage(tokenUsage);
    b.setAcceptLength(acceptLength);
    b.setAcceptRate(acceptRate);
    b.setRawAcceptRate(rawAcceptRate);
    b.setRawAcceptRateDefinition(rawAcceptRateDefinition);
    b.setAcceptedTokens(acceptedTokens);
    b.setDraftedTokens(draftedTokens);
    b.setEmittedTokens(emittedTokens);
    b.setPerPositionAcceptance(perPositionAcceptance);
    b.setPerPositionAccepted(perPositionAccepted);
    b.setGenThroughputTokS(genThroughputTokS);
    b.setDraftMs(draftMs);
    b.setVerifyMs(verifyMs);
    b.setOverheadMs(overheadMs);
    b.setCycleMs(cycleMs);
    b.setCudaGraph(cudaGraph);
    b.setSpecEnabled(specEnabled);
    b.setRunContextId(runContextId);
    b.setRawFields(rawFields);
    return b.build();
  }
}
