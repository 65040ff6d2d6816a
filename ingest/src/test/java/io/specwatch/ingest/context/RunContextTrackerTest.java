package io.specwatch.ingest.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.Engine;
import io.specwatch.schemas.RunContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunContextTrackerTest {

  static final Instant T0 = Instant.parse("2026-11-30T17:00:00Z");
  static final Instant T1 = Instant.parse("2026-11-30T17:05:00Z");

  static ContextFields fields(String model, String method, Integer tp, Map<String, String> env) {
    ContextFields.Builder b = ContextFields.builder();
    b.model = model;
    b.specMethod = method;
    b.tp = tp;
    b.env = env;
    return b.build();
  }

  @Test
  void nothingStatedMeansNoContextAndNoStamp() {
    RunContextTracker t = new RunContextTracker("d");
    assertThat(t.pending(T0)).isEmpty();
    assertThat(t.stamp("d", T0)).isEqualTo(new RunContextTracker.Stamp(null, List.of()));
  }

  @Test
  void cliContextIsPublishedOnceAtStartAndStampsEvents() {
    RunContextTracker t = new RunContextTracker("d");
    t.setCli(fields("m", "EAGLE3", 8, null));
    var start = t.pending(T0);
    assertThat(start).hasSize(1);
    RunContext rc = start.get(0);
    assertThat(rc.getObservedAt()).isEqualTo(T0);
    assertThat(rc.getModel()).isEqualTo("m");
    assertThat(rc.getExtra()).doesNotContainKey(RunContexts.MISSING_KEY);
    assertThat(t.pending(T1)).isEmpty();
    var stamp = t.stamp("d", T1);
    assertThat(stamp.contextId()).isEqualTo(rc.getContextId());
    assertThat(stamp.publish()).isEmpty();
  }

  /**
   * Every stamp carries the id of its deployment's merged content as it is now, through each kind
   * of change and between deployments (the tracker keeps the last quiet stamp to skip its lookups;
   * each change must drop it).
   */
  @Test
  void everyStampFollowsTheLatestChange() {
    RunContextTracker t = new RunContextTracker("d");
    assertStamp(t, "d", null);
    t.setCli(fields("m", "EAGLE3", 8, null));
    assertStamp(t, "d", "m");
    assertThat(t.stamp("d", T0)).isSameAs(t.stamp("d", T1)); // quiet: the same stamp
    t.reveal(fields("m2", null, null, null), T0);
    assertStamp(t, "d", "m2");
    assertStamp(t, "e", "m"); // another deployment: the CLI layer only
    assertStamp(t, "d", "m2");
    ContextFields.Builder file = ContextFields.builder();
    file.hardwareClass = "h100x8";
    t.setFile(file.build());
    assertStamp(t, "d", "m2");
    assertStamp(t, "e", "m");
    t.restoreLogLayers(Map.of("e", fields("m3", null, null, null)));
    assertStamp(t, "e", "m3");
    assertStamp(t, "d", "m2");
    t.setCli(fields("m4", "EAGLE3", 8, null));
    assertStamp(t, "d", "m2"); // the log layer still overrides the model
    assertStamp(t, "e", "m3");
    ContextFields.Builder ofE = ContextFields.builder();
    ofE.model = "m5";
    ofE.deployment = "e"; // a log line of deployment e
    t.reveal(ofE.build(), T1);
    assertStamp(t, "e", "m5");
    assertStamp(t, "d", "m2");
  }

  /** A stamp of d: the id of d's merged content now, published once, with that model. */
  private static void assertStamp(RunContextTracker t, String d, String model) {
    RunContextTracker.Stamp first = t.stamp(d, T0);
    RunContextTracker.Stamp again = t.stamp(d, T1);
    ContextFields merged = t.merged(d);
    if (model == null) {
      assertThat(merged.isEmpty()).isTrue();
      assertThat(first.contextId()).isNull();
      assertThat(again.contextId()).isNull();
      return;
    }
    String id = RunContexts.build(d, merged, T0).getContextId();
    assertThat(first.contextId()).isEqualTo(id);
    assertThat(again.contextId()).isEqualTo(id);
    assertThat(again.publish()).isEmpty();
    first.publish().forEach(rc -> assertThat(rc.getContextId()).isEqualTo(id));
    assertThat(merged.model()).isEqualTo(model);
  }

  @Test
  void laterLayersOverrideFieldByFieldAndEnvIsOneField() {
    RunContextTracker t = new RunContextTracker("d");
    ContextFields cli = fields(null, null, 8, Map.of("NCCL_PROTO", "LL", "NCCL_ALGO", "Ring"));
    t.setCli(cli.overlay(ContextFields.builder().build()));
    ContextFields.Builder file = ContextFields.builder();
    file.hardwareClass = "rtx-pro-6000x8";
    file.extra.put("a", "1");
    t.setFile(file.build());
    RunContext first = t.reveal(fields("kimi", "EAGLE3", null, null), T0).get(0);
    assertThat(first.getTp()).isEqualTo(8);
    assertThat(first.getHardwareClass()).isEqualTo("rtx-pro-6000x8");
    assertThat(first.getModel()).isEqualTo("kimi");
    assertThat(first.getEnv()).containsEntry("NCCL_PROTO", "LL");
    // the engine reports its real environment: NCCL_PROTO no longer reaches it
    ContextFields.Builder line = ContextFields.builder();
    line.env = Map.of("NCCL_ALGO", "Ring");
    line.extra.put("b", "2");
    List<RunContext> seconds = t.reveal(line.build(), T1);
    assertThat(seconds).hasSize(1);
    RunContext second = seconds.get(0);
    assertThat(second.getEnv()).isEqualTo(Map.of("NCCL_ALGO", "Ring"));
    assertThat(second.getExtra()).containsEntry("a", "1").containsEntry("b", "2");
    assertThat(second.getModel()).isEqualTo("kimi");
    assertThat(second.getObservedAt()).isEqualTo(T1);
    assertThat(second.getContextId()).isNotEqualTo(first.getContextId());
    // stating the same again changes nothing
    assertThat(t.reveal(line.build(), T1.plusSeconds(60))).isEmpty();
    assertThat(t.stamp("d", T1.plusSeconds(61)).contextId()).isEqualTo(second.getContextId());
  }

  @Test
  void contextIdIgnoresObservedAtAndMapOrderButNotContent() {
    ContextFields a = fields("m", "EAGLE3", 8, Map.of("X", "1", "Y", "2"));
    ContextFields b =
        fields("m", "EAGLE3", 8, new java.util.LinkedHashMap<>(Map.of("Y", "2", "X", "1")));
    String idA = RunContexts.build("d", a, T0).getContextId();
    assertThat(RunContexts.build("d", b, T1).getContextId()).isEqualTo(idA);
    assertThat(RunContexts.build("e", a, T0).getContextId()).isNotEqualTo(idA);
    assertThat(RunContexts.build("d", fields("m", "EAGLE3", 4, a.env()), T0).getContextId())
        .isNotEqualTo(idA);
    assertThat(idA).matches("[0-9a-f]{16}");
  }

  @Test
  void missingRequiredFieldsGetDocumentedPlaceholders() {
    ContextFields.Builder b = ContextFields.builder();
    b.gpuModel = "H100";
    RunContext rc = RunContexts.build("d", b.build(), T0);
    assertThat(rc.getModel()).isEqualTo("unknown");
    assertThat(rc.getSpecMethod()).isEqualTo("UNKNOWN");
    assertThat(rc.getTp()).isEqualTo(1);
    assertThat(rc.getEngine()).isEqualTo(Engine.UNKNOWN);
    assertThat(rc.getExtra()).containsEntry("missing", "model,spec_method,tp");
  }

  @Test
  void logLinesOfAnotherDeploymentHaveTheirOwnContext() {
    RunContextTracker t = new RunContextTracker("d");
    t.setCli(fields(null, null, 8, null));
    ContextFields other = fields("x", "NONE", 1, null).withDeployment("other");
    RunContext rc = t.reveal(other, T0).get(0);
    assertThat(rc.getDeploymentId()).isEqualTo("other");
    assertThat(rc.getTp()).isEqualTo(1);
    var stamp = t.stamp("d", T0);
    assertThat(stamp.publish()).hasSize(1);
    assertThat(stamp.publish().get(0).getTp()).isEqualTo(8);
    assertThat(stamp.publish().get(0).getModel()).isEqualTo("unknown");
  }

  @Test
  void aContextRevealedAtAnEarlierTimeIsPublishedAgainAtTheNewestTime() {
    // tail started at P on a log written an hour before: the CLI context (hardware only, model
    // unknown) is published at P, then the log's server_args line, stamped P - 1h, is read
    Instant p = T0.plusSeconds(3600);
    RunContextTracker t = new RunContextTracker("d");
    ContextFields.Builder hw = ContextFields.builder();
    hw.hardwareClass = "h200x8";
    t.setCli(hw.build());
    List<RunContext> start = t.pending(p);
    assertThat(start).hasSize(1);
    assertThat(start.get(0).getModel()).isEqualTo("unknown");

    List<RunContext> revealed = t.reveal(fields("deepseek", "MTP", 8, null), T0);
    assertThat(revealed).hasSize(2);
    assertThat(revealed.get(0).getObservedAt()).as("for the lines before P").isEqualTo(T0);
    assertThat(revealed.get(1).getObservedAt()).as("replaces the start context").isEqualTo(p);
    assertThat(revealed).allSatisfy(rc -> assertThat(rc.getModel()).isEqualTo("deepseek"));
    assertThat(revealed.get(1).getContextId()).isEqualTo(revealed.get(0).getContextId());

    // a change revealed after P in the log's own time is published once
    List<RunContext> later = t.reveal(fields(null, null, 4, null), p.plusSeconds(60));
    assertThat(later).hasSize(1);
    assertThat(later.get(0).getObservedAt()).isEqualTo(p.plusSeconds(60));
    // and a change stamped before that newest time again twice, the second at the newest time
    List<RunContext> earlier = t.reveal(fields(null, null, 2, null), p.plusSeconds(30));
    assertThat(earlier)
        .extracting(RunContext::getObservedAt)
        .containsExactly(p.plusSeconds(30), p.plusSeconds(60));
  }

  @Test
  void theFileIsReadFailingFastAndReReadWhenItChanges(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("ctx.json");
    Files.writeString(
        file,
        "{\"schema\":\"specwatch.run_context.v1\",\"model\":\"m\",\"spec_method\":\"eagle3\","
            + "\"tp\":8,\"env\":{\"NCCL_PROTO\":\"LL\"}}");
    RunContextSources sources = new RunContextSources(ContextFields.EMPTY, file);
    RunContextTracker t = sources.newTracker("d");
    RunContext first = t.pending(T0).get(0);
    assertThat(first.getSpecMethod()).isEqualTo("EAGLE3");
    RunContextFileWatcher watcher = new RunContextFileWatcher(file, t);
    assertThat(watcher.poll()).isFalse();
    Files.writeString(file, "{\"model\":\"m\",\"spec_method\":\"EAGLE3\",\"tp\":8,\"env\":{}}");
    Files.setLastModifiedTime(
        file, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5000));
    assertThat(watcher.poll()).isTrue();
    RunContext second = t.pending(T1).get(0);
    assertThat(second.getEnv()).isEmpty();
    // a broken edit keeps the previous context
    Files.writeString(file, "{\"tp\":");
    Files.setLastModifiedTime(
        file, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 10000));
    assertThat(watcher.poll()).isFalse();
    assertThat(t.pending(T1)).isEmpty();
    assertThatThrownBy(() -> sources.newTracker("d"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("run-context")
        .hasMessageContaining(file.toString());
  }
}
