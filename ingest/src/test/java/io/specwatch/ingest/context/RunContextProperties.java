package io.specwatch.ingest.context;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.RunContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;

class RunContextProperties {

  /** A context is published exactly when the merged content differs from the last one. */
  @Property(tries = 200)
  void publishesExactlyOnChange(
      @ForAll @Size(min = 1, max = 30) List<@IntRange(min = 0, max = 3) Integer> protoChoices) {
    RunContextTracker t = new RunContextTracker("d");
    String[] protos = {"LL", "LL128", "Simple", null};
    String last = "<none>";
    Instant at = Instant.parse("2026-11-30T17:00:00Z");
    for (int choice : protoChoices) {
      ContextFields.Builder b = ContextFields.builder();
      b.model = "m";
      b.specMethod = "EAGLE3";
      b.tp = 8;
      b.env = protos[choice] == null ? Map.of() : Map.of("NCCL_PROTO", protos[choice]);
      List<RunContext> published = t.reveal(b.build(), at);
      String now = String.valueOf(protos[choice]);
      if (now.equals(last)) {
        assertThat(published).isEmpty();
      } else {
        assertThat(published).as("observedAt only grows here: one record").hasSize(1);
        RunContext rc = published.get(0);
        assertThat(rc.getEnv().get("NCCL_PROTO")).isEqualTo(protos[choice]);
        assertThat(t.stamp("d", at).contextId()).isEqualTo(rc.getContextId());
      }
      last = now;
      at = at.plusSeconds(1);
    }
  }

  /** The id depends on content only: not on insertion order or observation time. */
  @Property(tries = 200)
  void contextIdIsDeterministic(
      @ForAll @Size(max = 8)
          Map<@StringLength(min = 1, max = 8) String, @StringLength(max = 8) String> env,
      @ForAll @IntRange(min = 1, max = 64) int tp,
      @ForAll long seed) {
    List<Map.Entry<String, String>> entries = new ArrayList<>(env.entrySet());
    Collections.shuffle(entries, new java.util.Random(seed));
    Map<String, String> shuffled = new LinkedHashMap<>();
    entries.forEach(e -> shuffled.put(e.getKey(), e.getValue()));
    ContextFields a = RunContextTrackerTest.fields("m", "EAGLE3", tp, env);
    ContextFields b = RunContextTrackerTest.fields("m", "EAGLE3", tp, shuffled);
    assertThat(RunContexts.build("d", a, Instant.ofEpochMilli(seed & 0xffffffffL)).getContextId())
        .isEqualTo(RunContexts.build("d", b, Instant.EPOCH).getContextId());
  }
}
