package io.specwatch.ingest.ship;

import io.specwatch.ingest.context.RunContextTracker;
import io.specwatch.ingest.context.SpecMethods;
import io.specwatch.ingest.normalise.DecodeEventNormaliser;
import io.specwatch.ingest.normalise.EventIds;
import io.specwatch.ingest.normalise.EventPlausibility;
import io.specwatch.ingest.normalise.LineOrigin;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.normalise.RawFieldsPolicy;
import io.specwatch.ingest.normalise.RequestAcceptances;
import io.specwatch.ingest.normalise.SourceContext;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.parse.RawFields;
import io.specwatch.ingest.parse.context.ContextLine;
import io.specwatch.ingest.parse.request.RequestLine;
import io.specwatch.ingest.parse.sglang.SglangDecodeBatch;
import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RequestAcceptance;
import io.specwatch.schemas.RunContext;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Lines of one source to outcomes: parse, normalise, or build the dead letter. No I/O; shared by
 * the {@code parse} command and the Kafka shipper. Feed lines in file order. Lines that reveal run
 * context go to the {@link RunContextTracker}; every event and request is stamped with the context
 * id in force, preceded by the new RunContext when its deployment's context changed.
 */
public final class LineIngestor {

  /** Dead-letter stage of parse failures. */
  public static final String STAGE = "ingest.parse";

  static final String PARSER_VERSION = "1";

  private final SourceContext source;
  private final ParserRegistry parsers;
  private final DecodeEventNormaliser normaliser;
  private final Clock clock;
  private final NormaliseConfig config;
  private final RunContextTracker contexts;
  private SglangEventWriter sglang; // of ingestWritingAhead, created on its first call

  /** An ingestor with its own run-context tracker and no configured context source. */
  public LineIngestor(
      SourceContext source, NormaliseConfig config, ParserRegistry parsers, Clock clock) {
    this(source, config, parsers, clock, new RunContextTracker(source.deploymentId()));
  }

  /** An ingestor sharing {@code contexts} (one per shipper process). */
  public LineIngestor(
      SourceContext source,
      NormaliseConfig config,
      ParserRegistry parsers,
      Clock clock,
      RunContextTracker contexts) {
    this.source = source;
    this.parsers = parsers;
    // only a run context that says NONE makes vLLM throughput lines plain-decoding step times
    this.normaliser =
        new DecodeEventNormaliser(
            source,
            config,
            deployment -> SpecMethods.NONE.equals(contexts.merged(deployment).specMethod()));
    this.clock = clock;
    this.config = config;
    this.contexts = contexts;
  }

  /** Dead-letter error class of a line whose event holds a value no engine can have. */
  public static final String IMPLAUSIBLE = "ImplausibleValue";

  /** Dead-letter error class of a line longer than the max line length. */
  public static final String LINE_TOO_LONG = "LineTooLong";

  public IngestOutcome ingest(SourceLine line) {
    return ingest(line, line.truncated() ? null : parsers.parse(line.text()));
  }

  /**
   * {@link #ingest(SourceLine)} with the line already parsed by {@link #parse(ParserRegistry,
   * SourceLine)} (parsing is stateless and may run on another thread; this method keeps the
   * per-source state and must see the lines in file order).
   */
  public IngestOutcome ingest(SourceLine line, ParseResult result) {
    return ingest(line, result, null);
  }

  /**
   * {@link #ingest(SourceLine, ParseResult)} with the line's event id computed ahead by {@link
   * #eventId(SourceContext, SourceLine)} (null: computed here).
   */
  public IngestOutcome ingest(SourceLine line, ParseResult result, String eventId) {
    return ingest(line, result, eventId, clock.instant());
  }

  /**
   * {@link #ingest(SourceLine, ParseResult, String)} at ingest time {@code now} (the shipper reads
   * the clock once per batch of lines, not per line).
   */
  public IngestOutcome ingest(SourceLine line, ParseResult result, String eventId, Instant now) {
    if (line.truncated()) {
      // never parsed: a cut line could parse into wrong numbers; the head is kept for replay
      return dead(
          line,
          null,
          LINE_TOO_LONG,
          "line of "
              + line.length()
              + " bytes is longer than max-line-bytes; raw holds its first "
              + line.bytes().length
              + " bytes",
          now);
    }
    if (result instanceof ParseResult.Parsed parsed) {
      LineOrigin origin =
          new LineOrigin(line.lineNumber(), line.offset(), line.text(), now, eventId);
      List<IngestOutcome> parts = new ArrayList<>(2);
      try {
        if (parsed.line() instanceof ContextLine c) {
          List<RunContext> revealed = contexts.reveal(c.fields(), contextTime(c, now));
          if (revealed.isEmpty()) {
            return new IngestOutcome.Recognised(c.format());
          }
          revealed.forEach(rc -> parts.add(new IngestOutcome.Context(rc)));
          return parts.size() == 1 ? parts.get(0) : new IngestOutcome.Many(parts);
        }
        if (parsed.line() instanceof RequestLine request) {
          RequestAcceptance r = RequestAcceptances.of(source, request, origin);
          RunContextTracker.Stamp stamp = contexts.stamp(r.getDeploymentId(), r.getFinishedAt());
          r.put("runContextId", stamp.contextId());
          addContext(parts, stamp);
          parts.add(new IngestOutcome.Request(r));
        } else {
          List<DecodeEvent> events = normaliser.normaliseAll(parsed.line(), origin);
          for (DecodeEvent e : events) {
            // checked before any stamping, so no run context is marked published for a dead line
            String implausible = EventPlausibility.problem(e);
            if (implausible != null) {
              return dead(line, parsed.line().format(), IMPLAUSIBLE, implausible, now);
            }
          }
          for (DecodeEvent e : events) {
            RunContextTracker.Stamp stamp = contexts.stamp(e.getDeploymentId(), e.getEventTime());
            e.put("runContextId", stamp.contextId());
            addContext(parts, stamp);
            parts.add(new IngestOutcome.Event(e));
          }
        }
      } catch (RuntimeException e) {
        return dead(line, parsed.line().format(), "NormaliseFailure", e.toString(), now);
      }
      return parts.size() == 1 ? parts.get(0) : new IngestOutcome.Many(parts);
    }
    if (result instanceof ParseResult.Failed failed) {
      return dead(line, failed.format(), "ParseFailure", failed.reason(), now);
    }
    if (result instanceof ParseResult.Skipped skipped) {
      return new IngestOutcome.Skipped(skipped.format(), skipped.reason());
    }
    return new IngestOutcome.Unrecognised();
  }

  /**
   * {@link #ingest(SourceLine)}, except that an SGLang {@code Decode batch} line's event is written
   * straight to its Avro bytes ({@link IngestOutcome.PreEncoded}: the same bytes, without building
   * the event) when its values are plausible. For a sender whose {@link
   * OutcomeRecords#preEncodedReady} holds ({@code tail}; {@code ship} writes ahead on its parse
   * threads instead).
   */
  public IngestOutcome ingestWritingAhead(SourceLine line) {
    ParseResult result = parse(parsers, line);
    if (result instanceof ParseResult.Parsed parsed
        && parsed.line() instanceof SglangDecodeBatch batch) {
      if (sglang == null) {
        sglang = new SglangEventWriter(source, config);
      }
      String id = eventId(source, line);
      SglangEventParts parts = sglang.write(batch, id, line);
      Instant now = clock.instant();
      return parts != null ? ingest(parts, now) : ingest(line, result, id, now);
    }
    return ingest(line, result);
  }

  /**
   * The outcome of an SGLang line written ahead by {@link SglangEventWriter}: the event the
   * normaliser's way gives the line, as {@link IngestOutcome.PreEncoded}, after the run context to
   * publish first if any. Keeps the per-source state as {@link #ingest(SourceLine, ParseResult,
   * String, Instant)} does: feed every line of the source to one of the two, in file order.
   */
  public IngestOutcome ingest(SglangEventParts line, Instant now) {
    Instant printed = line.printed();
    Double intervalMs = normaliser.sglangIntervalMs(line.rankKey(), printed);
    Double cycleMs = normaliser.sglangCycleMs(line.rankKey(), printed);
    Instant eventTime = printed != null ? printed : now;
    RunContextTracker.Stamp stamp = contexts.stamp(source.deploymentId(), eventTime);
    IngestOutcome event =
        new IngestOutcome.PreEncoded(
            line,
            source.deploymentId(),
            eventTime.toEpochMilli(),
            now.toEpochMilli(),
            intervalMs,
            cycleMs,
            stamp.contextId());
    if (stamp.publish().isEmpty()) {
      return event;
    }
    List<IngestOutcome> parts = new ArrayList<>(2);
    addContext(parts, stamp);
    parts.add(event);
    return new IngestOutcome.Many(parts);
  }

  /** The parse result {@link #ingest(SourceLine, ParseResult)} expects: null for a cut line. */
  public static ParseResult parse(ParserRegistry parsers, SourceLine line) {
    return line.truncated() ? null : parsers.parse(line.text());
  }

  /**
   * Encodes the raw fields that the parsed line's event keeps under {@code policy} ahead ({@link
   * RawFields#avroBinary}; stateless, any thread), so the sequential stage that encodes its events
   * only copies them (the normaliser gets the same instance: {@link RawFields#without}). A field
   * the encoding cannot take is left for that stage to report.
   */
  public static void prepareEncoding(ParseResult.Parsed parsed, RawFieldsPolicy policy) {
    try {
      policy.of(parsed.line()).avroBinary();
    } catch (RuntimeException e) {
      // a null name or text: the event's encoding fails the same way and is reported there
    }
  }

  /**
   * The event id of a line of source (stateless, any thread): what the normaliser would compute.
   */
  public static String eventId(SourceContext source, SourceLine line) {
    int ascii = line.asciiTextLength();
    if (ascii >= 0) {
      // the same id, hashed from the line's bytes (they are the text's UTF-8) without encoding
      return EventIds.ofUtf8(
          source.host(),
          source.source(),
          source.sourceIdentity(),
          line.offset(),
          line.bytes(),
          ascii);
    }
    return new LineOrigin(line.lineNumber(), line.offset(), line.text(), null).eventId(source);
  }

  /** The tracker this ingestor stamps with. */
  public RunContextTracker contexts() {
    return contexts;
  }

  private static void addContext(List<IngestOutcome> parts, RunContextTracker.Stamp stamp) {
    List<RunContext> publish = stamp.publish();
    for (int i = 0; i < publish.size(); i++) { // nearly always empty: no iterator, no lambda
      parts.add(new IngestOutcome.Context(publish.get(i)));
    }
  }

  /** observedAt of a revealed context: the line's time, else now. */
  private Instant contextTime(ContextLine c, Instant now) {
    if (c.time() != null) {
      return c.time();
    }
    if (c.prefix().timestamp() != null) {
      return c.prefix().timestamp().atZone(config.logZone()).toInstant();
    }
    if (c.vllmStamp() != null) {
      return c.vllmStamp().resolve(config.logYear(), now, config.logZone());
    }
    return now;
  }

  private IngestOutcome dead(
      SourceLine line, String format, String errorClass, String reason, Instant now) {
    // the all-args constructor, not the builder: Avro's builder looks up and copies the schema's
    // defaults per record, and a dead letter is rare enough that its path is never compiled well
    // (~2 % of the sending thread's samples for 0.04 % of the lines in the benchmark's log)
    return new IngestOutcome.Dead(
        new DeadLetter(
            STAGE,
            source.source(),
            source.host(),
            null,
            null,
            line.offset(),
            line.lineNumber(),
            format,
            errorClass,
            reason == null ? "(no reason given)" : reason,
            now,
            ByteBuffer.wrap(line.bytes()),
            Map.of(
                "deploymentId", source.deploymentId(),
                "sourceIdentity", source.sourceIdentity(),
                "parserVersion", PARSER_VERSION)));
  }
}
