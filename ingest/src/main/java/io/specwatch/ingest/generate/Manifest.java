package io.specwatch.ingest.generate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;

/**
 * {@code manifest.json}: the scenario's deployments with their true parameters and run contexts per
 * segment, the files and line counts, and the episodes with the alerts a correct pipeline raises.
 */
public final class Manifest {

  public static final String FILE = "manifest.json";

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Manifest() {}

  /** The manifest as a JSON-ready tree. */
  public static Map<String, Object> tree(
      Scenario s, Map<String, Map<String, Long>> lineCounts, String mode) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("schema", "specwatch.generate.manifest.v1");
    m.put("scenario", s.name());
    m.put("seed", s.seed());
    m.put("start", s.start().toString());
    m.put("end", s.end().toString());
    m.put("mode", mode);
    Map<String, Object> hints = new LinkedHashMap<>();
    hints.put("decodeLogInterval", 40);
    hints.put("logZone", "UTC");
    hints.put("logYear", s.start().atZone(ZoneOffset.UTC).getYear());
    hints.put(
        "note",
        "ship each file of a deployment with its shipArgs (ingest ship --file F <shipArgs>)");
    m.put("shipperSettings", hints);
    List<Object> deployments = new ArrayList<>();
    for (DeploymentSpec d : s.deployments()) {
      Map<String, Object> x = deployment(d, lineCounts == null ? null : lineCounts.get(d.id()));
      x.put("shipArgs", ShipArgs.of(d, s.start()));
      deployments.add(x);
    }
    m.put("deployments", deployments);
    m.put(
        "separatingPartitions",
        separatingPartitions(s.deployments().stream().map(DeploymentSpec::id).toList()));
    List<Object> episodes = new ArrayList<>();
    for (Episode e : s.episodes()) {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("id", e.id());
      x.put("deployment", e.deploymentId());
      x.put("type", e.type().name());
      x.put("from", e.from().toString());
      x.put("to", e.to().toString());
      x.put("expectedAlerts", e.expectedAlerts());
      x.put("description", e.description());
      x.put("figures", e.figures());
      episodes.add(x);
    }
    m.put("episodes", episodes);
    return m;
  }

  /**
   * The smallest partition count (at least one per key, at most 256) under which Kafka's default
   * partitioner puts every key on a partition of its own; 0 when there is none. Stream time is per
   * partition: a deployment whose shipper lags behind another on the same partition would see its
   * events arrive after the other one closed their windows, so a demo or test with a handful of
   * deployments gives each its own partition.
   */
  public static int separatingPartitions(List<String> keys) {
    for (int p = Math.max(1, keys.size()); p <= 256; p++) {
      Set<Integer> used = new HashSet<>();
      for (String k : keys) {
        used.add(partitionOf(k, p));
      }
      if (used.size() == keys.size()) {
        return p;
      }
    }
    return 0;
  }

  /** The partition of {@code key} among {@code partitions} under Kafka's default partitioner. */
  public static int partitionOf(String key, int partitions) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  private static Map<String, Object> deployment(DeploymentSpec d, Map<String, Long> counts) {
    Map<String, Object> x = new LinkedHashMap<>();
    x.put("id", d.id());
    x.put("host", d.host());
    x.put("engine", d.format().engineName());
    x.put("logFormat", d.format().name());
    x.put("formatId", d.format().formatId());
    x.put("requestFormat", d.requestFormat().name());
    x.put("model", d.model());
    x.put("draftModel", d.draftModel());
    x.put("draftModelVersion", d.draftModelVersion());
    x.put("specMethod", d.method().wireName());
    x.put("numSteps", d.numSteps());
    x.put("topk", d.topk());
    x.put("draftTokens", d.draftTokens());
    x.put("numDraftTokensSetting", d.numDraftTokensSetting());
    x.put("hardware", d.hardware());
    x.put("tp", d.tp());
    x.put("meanBatch", d.meanBatch());
    x.put("maxBatch", d.maxBatch());
    x.put("meanOutputTokens", d.meanOutputTokens());
    x.put("baseline", d.baselineId());
    List<Object> segments = new ArrayList<>();
    for (Segment seg : d.segments()) {
      Map<String, Object> y = new LinkedHashMap<>();
      y.put("from", seg.from().toString());
      y.put("runContext", seg.context());
      y.put("runContextId", EventRecords.runContext(d, seg, seg.from()).getContextId());
      y.put("truth", Truth.figures(d, seg));
      segments.add(y);
    }
    x.put("segments", segments);
    if (!d.forcedWindowFactors().isEmpty()) {
      Map<String, Object> forced = new LinkedHashMap<>();
      d.forcedWindowFactors()
          .forEach(
              (minute, f) ->
                  forced.put(Instant.ofEpochSecond(minute * 60).toString(), Truth.round(f)));
      x.put("windowFactors", forced);
    }
    if (counts != null) {
      x.put("lines", counts);
    }
    return x;
  }

  /** Writes {@code manifest.json} atomically (a reader never sees half a file). */
  public static void write(Path dir, Map<String, Object> tree) throws IOException {
    Files.createDirectories(dir);
    Path tmp = dir.resolve(FILE + ".tmp");
    JSON.writeValue(tmp.toFile(), tree);
    Files.move(
        tmp,
        dir.resolve(FILE),
        StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }
}
