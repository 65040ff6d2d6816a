package io.specwatch.ingest.samples;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.normalise.SourceContext;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.ship.IngestOutcome;
import io.specwatch.ingest.ship.LineIngestor;
import io.specwatch.ingest.ship.LogFileReader;
import io.specwatch.schemas.DecodeEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The committed demo logs are the generator's output and have the promised shape. */
public class SampleLogsTest {

  /** demo/logs in the repository, from the module directory surefire runs in. */
  public static final Path DIR = Path.of("..", "demo", "logs");

  public static final long EAGLE3_LINES = 364;
  public static final long EAGLE3_RECOGNISED = 319;
  public static final long EAGLE3_DEAD = 2;

  /** The EAGLE3 log's first line is SGLang's server_args: recognised, a RunContext. */
  public static final long EAGLE3_CONTEXT_LINES = 1;

  public static final long BASELINE_LINES = 864;
  public static final long BASELINE_RECOGNISED = 816;

  @Test
  void committedFilesEqualGeneratorOutput() throws IOException {
    assertThat(Files.readString(DIR.resolve(SampleLogGenerator.EAGLE3_FILE)))
        .isEqualTo(SampleLogGenerator.eagle3());
    assertThat(Files.readString(DIR.resolve(SampleLogGenerator.BASELINE_FILE)))
        .isEqualTo(SampleLogGenerator.baseline());
  }

  @Test
  void eagle3LogShape() throws IOException {
    List<IngestOutcome> outcomes = ingest(SampleLogGenerator.EAGLE3_FILE);
    assertThat(outcomes).hasSize((int) EAGLE3_LINES);
    List<DecodeEvent> events = events(outcomes);
    assertThat(events).hasSize((int) EAGLE3_RECOGNISED);
    assertThat(outcomes.stream().filter(IngestOutcome.Dead.class::isInstance)).hasSize(2);
    assertThat(outcomes.get(0)).isInstanceOf(IngestOutcome.Context.class);
    var context = ((IngestOutcome.Context) outcomes.get(0)).runContext();
    assertThat(context.getModel()).isEqualTo("/models/Kimi-K2.5");
    assertThat(context.getSpecMethod()).isEqualTo("EAGLE3");
    assertThat(context.getTp()).isEqualTo(8);
    assertThat(events).allMatch(e -> context.getContextId().equals(e.getRunContextId()));
    assertThat(spanOf(events)).isGreaterThanOrEqualTo(Duration.ofMinutes(6));
    double tau = events.stream().mapToDouble(DecodeEvent::getAcceptLength).average().orElse(0);
    assertThat(tau).isBetween(1.85, 2.0);
    double perRequest =
        events.stream()
            .mapToDouble(e -> e.getGenThroughputTokS() / e.getRunningRequests())
            .average()
            .orElse(0);
    assertThat(perRequest).isBetween(55.0, 65.0);
    assertThat(meanCycleMs(events)).isBetween(29.0, 34.0);
    assertThat(events).allMatch(DecodeEvent::getSpecEnabled);
  }

  @Test
  void baselineLogShape() throws IOException {
    List<IngestOutcome> outcomes = ingest(SampleLogGenerator.BASELINE_FILE);
    assertThat(outcomes).hasSize((int) BASELINE_LINES);
    List<DecodeEvent> events = events(outcomes);
    assertThat(events).hasSize((int) BASELINE_RECOGNISED);
    assertThat(spanOf(events)).isGreaterThanOrEqualTo(Duration.ofMinutes(6));
    assertThat(events).noneMatch(DecodeEvent::getSpecEnabled);
    assertThat(events).allMatch(e -> e.getAcceptLength() == null);
    double perRequest =
        events.stream()
            .mapToDouble(e -> e.getGenThroughputTokS() / e.getRunningRequests())
            .average()
            .orElse(0);
    assertThat(perRequest).isBetween(78.0, 84.0);
    assertThat(meanCycleMs(events)).isBetween(11.5, 13.5);
  }

  /** Sum of measured intervals over sum of passes: the per-step wall time. */
  private static double meanCycleMs(List<DecodeEvent> events) {
    double ms = 0;
    long passes = 0;
    for (DecodeEvent e : events) {
      if (e.getIntervalMs() != null) {
        ms += e.getIntervalMs();
        passes += e.getDecodePasses();
      }
    }
    return ms / passes;
  }

  private static Duration spanOf(List<DecodeEvent> events) {
    return Duration.between(
        events.get(0).getEventTime(), events.get(events.size() - 1).getEventTime());
  }

  private static List<DecodeEvent> events(List<IngestOutcome> outcomes) {
    List<DecodeEvent> events = new ArrayList<>();
    for (IngestOutcome o : outcomes) {
      if (o instanceof IngestOutcome.Event e) {
        events.add(e.event());
      }
    }
    return events;
  }

  private static List<IngestOutcome> ingest(String file) throws IOException {
    Path path = DIR.resolve(file);
    LineIngestor ingestor =
        new LineIngestor(
            new SourceContext("d", "h", path.toString(), "fp"),
            NormaliseConfig.defaults(),
            ParserRegistry.defaults(),
            Clock.systemUTC());
    List<IngestOutcome> out = new ArrayList<>();
    LogFileReader.forEachLine(path, line -> out.add(ingestor.ingest(line)));
    assertThat(new String(Files.readAllBytes(path), StandardCharsets.UTF_8)).isNotEmpty();
    return out;
  }
}
