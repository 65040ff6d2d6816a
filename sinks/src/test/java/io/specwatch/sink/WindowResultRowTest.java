package io.specwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.WindowResult;
import io.specwatch.sink.clickhouse.SqlDialect;
import io.specwatch.sink.migrate.MigrationLoader;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class WindowResultRowTest {

  static WindowResult sample() {
    return WindowResult.newBuilder()
        .setDeploymentId("kimi-eagle3")
        .setPromptCategory("chat")
        .setBatchBucket("2-4")
        .setWindowStart(Instant.parse("2026-03-14T02:16:00Z"))
        .setWindowEnd(Instant.parse("2026-03-14T02:17:00Z"))
        .setEvents(12)
        .setCycles(480)
        .setMeanAcceptLength(2.0)
        .setAcceptRate(0.5)
        .setPerPositionAcceptance(List.of(0.7, 0.3))
        .setMeanCycleMs(Double.NaN)
        .setBaselineSource("static:kimi \"8xPCIe\"")
        .build();
  }

  private static String json(WindowResult w) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    WindowResultRow.write(
        out,
        w,
        new WindowResultRow.Source("specwatch.window-results.v1", 3, 42L),
        Instant.parse("2026-03-14T02:18:05Z"));
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void mapsFieldsToSnakeCaseColumnsOnOneLine() {
    String line = json(sample());
    assertThat(line).endsWith("}\n").doesNotContain("\n{");
    assertThat(line)
        .contains("\"deployment_id\":\"kimi-eagle3\"")
        .contains("\"prompt_category\":\"chat\"")
        .contains("\"batch_bucket\":\"2-4\"")
        .contains("\"window_start\":\"2026-03-14 02:16:00\"")
        .contains("\"window_end\":\"2026-03-14 02:17:00\"")
        .contains("\"events\":12")
        .contains("\"cycles\":480")
        .contains("\"spec_enabled\":1")
        .contains("\"mean_accept_length\":2.0")
        .contains("\"accept_length_p50\":null")
        .contains("\"per_position_acceptance\":[0.7,0.3]")
        .contains("\"per_position_conditional\":[]")
        .contains("\"baseline_source\":\"static:kimi \\\"8xPCIe\\\"\"")
        .contains("\"run_context_id\":null")
        .contains("\"kafka_topic\":\"specwatch.window-results.v1\"")
        .contains("\"kafka_partition\":3")
        .contains("\"kafka_offset\":42")
        .contains("\"inserted_at\":\"2026-03-14 02:18:05\"");
  }

  @Test
  void nonFiniteNullableDoublesBecomeNull() {
    assertThat(json(sample())).contains("\"mean_cycle_ms\":null");
  }

  @Test
  void specDisabledIsZero() {
    WindowResult w = WindowResult.newBuilder(sample()).setSpecEnabled(false).build();
    assertThat(json(w)).contains("\"spec_enabled\":0");
  }

  @Test
  void everyColumnOfTheTableIsWrittenAndNothingElse() {
    String ddl = MigrationLoader.loadDefault().get(0).statements("db", SqlDialect.LEGACY).get(1);
    Set<String> columns = new LinkedHashSet<>();
    Matcher column = Pattern.compile("(?m)^\\s+([a-z_0-9]+) [A-Z]").matcher(ddl);
    while (column.find()) {
      columns.add(column.group(1));
    }
    Set<String> keys = new LinkedHashSet<>();
    Matcher key = Pattern.compile("\"([a-z_0-9]+)\":").matcher(json(sample()));
    while (key.find()) {
      keys.add(key.group(1));
    }
    assertThat(columns).hasSize(WindowResult.getClassSchema().getFields().size() + 4);
    assertThat(keys).containsExactlyElementsOf(columns);
  }
}
