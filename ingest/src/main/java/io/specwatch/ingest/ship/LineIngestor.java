package io.specwatch.ingest.ship;

import io.specwatch.ingest.normalise.DecodeEventNormaliser;
import io.specwatch.ingest.normalise.LineOrigin;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.normalise.RequestAcceptances;
import io.specwatch.ingest.normalise.SourceContext;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.parse.request.RequestLine;
import io.specwatch.schemas.DeadLetter;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;

/**
 * Lines of one source to outcomes: parse, normalise, or build the dead letter. No I/O; shared by
 * the {@code parse} command and the Kafka shipper. Feed lines in file order.
 */
public final class LineIngestor {

  /** Dead-letter stage of parse failures. */
  public static final String STAGE = "ingest.parse";

  static final String PARSER_VERSION = "1";

  private final SourceContext source;
  private final ParserRegistry parsers;
  private final DecodeEventNormaliser normaliser;
  private final Clock clock;

  public LineIngestor(
      SourceContext source, NormaliseConfig config, ParserRegistry parsers, Clock clock) {
    this.source = source;
    this.parsers = parsers;
    this.normaliser = new DecodeEventNormaliser(source, config);
    this.clock = clock;
  }

  /** Dead-letter error class of a line longer than the max line length. */
  public static final String LINE_TOO_LONG = "LineTooLong";

  public IngestOutcome ingest(SourceLine line) {
    Instant now = clock.instant();
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
    ParseResult result = parsers.parse(line.text());
    if (result instanceof ParseResult.Parsed parsed) {
      LineOrigin origin = new LineOrigin(line.lineNumber(), line.offset(), line.text(), now);
      try {
        if (parsed.line() instanceof RequestLine request) {
          return new IngestOutcome.Request(RequestAcceptances.of(source, request, origin));
        }
        return new IngestOutcome.Event(normaliser.normalise(parsed.line(), origin));
      } catch (RuntimeException e) {
        return dead(line, parsed.line().format(), "NormaliseFailure", e.toString(), now);
      }
    }
    if (result instanceof ParseResult.Failed failed) {
      return dead(line, failed.format(), "ParseFailure", failed.reason(), now);
    }
    return new IngestOutcome.Unrecognised();
  }

  private IngestOutcome dead(
      SourceLine line, String format, String errorClass, String reason, Instant now) {
    return new IngestOutcome.Dead(
        DeadLetter.newBuilder()
            .setStage(STAGE)
            .setSource(source.source())
            .setHost(source.host())
            .setOffset(line.offset())
            .setLineNumber(line.lineNumber())
            .setFormat(format)
            .setErrorClass(errorClass)
            .setErrorMessage(reason)
            .setFailedAt(now)
            .setRaw(ByteBuffer.wrap(line.bytes()))
            .setContext(
                Map.of(
                    "deploymentId", source.deploymentId(),
                    "sourceIdentity", source.sourceIdentity(),
                    "parserVersion", PARSER_VERSION))
            .build());
  }
}
