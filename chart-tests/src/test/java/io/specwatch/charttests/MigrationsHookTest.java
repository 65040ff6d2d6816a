package io.specwatch.charttests;

import static io.specwatch.charttests.Manifests.args;
import static io.specwatch.charttests.Manifests.container;
import static io.specwatch.charttests.Manifests.env;
import static io.specwatch.charttests.Manifests.mount;
import static io.specwatch.charttests.Manifests.podSpec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** The ClickHouse migrations: `sink migrate` as a pre-install/pre-upgrade hook Job. */
class MigrationsHookTest {
  private static final String F = Chart.FULLNAME;
  private static final String HOOK = Chart.HOOK_PREFIX + "hook";

  @Test
  void helmTreatsTheJobAndItsSecretAsHooks() {
    // helm template leaves hook objects out of the release manifest: proof that Helm parsed the
    // annotations as hooks
    Manifests release = Chart.render(ValuesScenarios.DEFAULTS);
    assertThat(release.find("Job", F + "-migrations")).isEmpty();
    assertThat(release.find("Secret", F + "-migrations")).isEmpty();
    assertThat(
            Chart.renderWithHooksVisible(ValuesScenarios.DEFAULTS).find("Job", F + "-migrations"))
        .isPresent();
  }

  @Test
  void jobRunsSinkMigrateBeforeInstallAndUpgrade() {
    Manifests m = Chart.renderWithHooksVisible(ValuesScenarios.DEFAULTS);
    JsonNode job = m.get("Job", F + "-migrations");
    JsonNode annotations = job.at("/metadata/annotations");
    assertThat(annotations.path(HOOK).asText()).isEqualTo("pre-install,pre-upgrade");
    assertThat(annotations.path(HOOK + "-delete-policy").asText())
        .isEqualTo("before-hook-creation,hook-succeeded");
    JsonNode c = container(job, "migrate");
    assertThat(args(c)).containsExactly("sink", "migrate");
    assertThat(c.path("image").asText()).isEqualTo("specwatch/app:" + Chart.appVersion());
    assertThat(podSpec(job).path("restartPolicy").asText()).isEqualTo("Never");
    assertThat(c.at("/securityContext/readOnlyRootFilesystem").asBoolean()).isTrue();
    assertThat(mount(c, "tmp")).isPresent();
    assertThat(env(c, "SPECWATCH_CLICKHOUSE_URL").orElseThrow().path("value").asText())
        .isEqualTo("http://clickhouse:8123");
    assertThat(env(c, "SPECWATCH_CLICKHOUSE_DATABASE").orElseThrow().path("value").asText())
        .isEqualTo("specwatch");
  }

  @Test
  void jobReadsCredentialsFromAHookSecretCreatedBeforeIt() {
    // at pre-install the release's own Secret does not exist yet
    Manifests m = Chart.renderWithHooksVisible("clickhouse:\n  password: pw1\n");
    JsonNode job = m.get("Job", F + "-migrations");
    String secretName =
        env(container(job, "migrate"), "SPECWATCH_CLICKHOUSE_PASSWORD")
            .orElseThrow()
            .at("/valueFrom/secretKeyRef/name")
            .asText();
    assertThat(secretName).isEqualTo(F + "-migrations");
    JsonNode secret = m.get("Secret", secretName);
    assertThat(secret.at("/stringData/password").asText()).isEqualTo("pw1");
    assertThat(secret.at("/metadata/annotations").path(HOOK).asText())
        .isEqualTo("pre-install,pre-upgrade");
    assertThat(secret.at("/metadata/annotations").path(HOOK + "-weight").asInt())
        .isLessThan(job.at("/metadata/annotations").path(HOOK + "-weight").asInt());
  }

  @Test
  void noMigrationsWithoutTheSink() {
    Manifests m = Chart.renderWithHooksVisible(ValuesScenarios.SHIPPER_ONLY);
    assertThat(m.ofKind("Job")).isEmpty();
    assertThat(m.ofKind("Secret")).isEmpty();
  }
}
