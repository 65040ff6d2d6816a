package io.specwatch.ingest.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.specwatch.ingest.context.RunContextSources;
import io.specwatch.ingest.context.RunContextTracker;
import io.specwatch.ingest.normalise.FileFingerprint;
import io.specwatch.ingest.normalise.SourceContext;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.ship.IngestOutcome;
import io.specwatch.ingest.ship.LineIngestor;
import io.specwatch.ingest.ship.LogFileReader;
import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.RunContext;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code parse}: no Kafka; one JSON object per recognised line on stdout, a summary on stderr. */
@Command(
    name = "parse",
    mixinStandardHelpOptions = true,
    description =
        "Parse log files offline: JSON per recognised line (stdout), summary (stderr). Exit codes:"
            + " 0 parsed, 2 bad setting or unreadable file.")
final class ParseCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Log files.")
  List<Path> files;

  @Option(
      names = "--deployment",
      defaultValue = "${env:SPECWATCH_DEPLOYMENT:-local}",
      description =
          "Deployment id recorded in events (env SPECWATCH_DEPLOYMENT, default ${DEFAULT-VALUE}).")
  String deployment;

  @Option(
      names = "--host",
      defaultValue = "${env:SPECWATCH_HOST:-localhost}",
      description = "Host recorded in events (env SPECWATCH_HOST, default ${DEFAULT-VALUE}).")
  String host;

  @Mixin NormaliseOptions normalise;

  @Mixin RunContextOptions context;

  @Override
  public Integer call() throws IOException {
    ObjectMapper json = new ObjectMapper();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    RunContextSources sources = context.toSources(System.getenv());
    for (Path file : files) {
      SourceContext source =
          new SourceContext(
              deployment,
              host,
              file.toAbsolutePath().normalize().toString(),
              FileFingerprint.of(file));
      RunContextTracker contexts = sources.newTracker(deployment);
      LineIngestor ingestor =
          new LineIngestor(
              source, normalise.toConfig(), ParserRegistry.defaults(), Clock.systemUTC(), contexts);
      for (RunContext rc : contexts.pending(Clock.systemUTC().instant())) {
        print(json, out, EventJson.toMap(rc, 0));
      }
      long[] counts = new long[5];
      LogFileReader.forEachLine(
          file,
          line -> {
            counts[0]++;
            IngestOutcome outcome = ingestor.ingest(line);
            boolean recognised = false;
            for (IngestOutcome part : outcome.parts()) {
              if (part instanceof IngestOutcome.Event e) {
                recognised = true;
                print(json, out, EventJson.toMap(e.event()));
              } else if (part instanceof IngestOutcome.Request r) {
                recognised = true;
                print(json, out, EventJson.toMap(r.request(), line.lineNumber()));
              } else if (part instanceof IngestOutcome.Context c) {
                recognised = true;
                print(json, out, EventJson.toMap(c.runContext(), line.lineNumber()));
              } else if (part instanceof IngestOutcome.Recognised) {
                recognised = true;
              } else if (part instanceof IngestOutcome.Dead d) {
                counts[2]++;
                DeadLetter dl = d.deadLetter();
                err.printf(
                    "%s:%d: dead letter (%s): %s%n",
                    file, dl.getLineNumber(), dl.getErrorClass(), dl.getErrorMessage());
              } else if (part instanceof IngestOutcome.Skipped sk) {
                counts[4]++;
                err.printf(
                    "%s:%d: skipped (%s): %s%n", file, line.lineNumber(), sk.format(), sk.reason());
              } else {
                counts[3]++;
              }
            }
            if (recognised) {
              counts[1]++;
            }
          });
      out.flush();
      err.printf(
          "%s: lines=%d recognised=%d dead-lettered=%d unrecognised=%d%s%n",
          file,
          counts[0],
          counts[1],
          counts[2],
          counts[3],
          counts[4] > 0 ? " skipped=" + counts[4] : "");
    }
    return 0;
  }

  private static void print(ObjectMapper json, PrintWriter out, Object value) {
    try {
      out.println(json.writeValueAsString(value));
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }
}
