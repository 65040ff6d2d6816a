package io.specwatch.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class DockerEnvironmentTest {

  @Test
  void noEngineConfiguredIsAProblem() {
    assertThat(DockerEnvironment.problem(Map.of(), false, false))
        .hasValueSatisfying(p -> assertThat(p).contains("DOCKER_HOST"));
  }

  @Test
  void insideAContainerTheHostOverrideIsRequired() {
    Map<String, String> env = Map.of("DOCKER_HOST", "unix:///tmp/docker.sock");

    assertThat(DockerEnvironment.problem(env, true, false))
        .hasValueSatisfying(p -> assertThat(p).contains("TESTCONTAINERS_HOST_OVERRIDE"));
    assertThat(DockerEnvironment.problem(env, false, false)).isEmpty();
  }

  @Test
  void aCompleteEnvironmentHasNoProblem() {
    Map<String, String> env =
        Map.of(
            "DOCKER_HOST", "unix:///tmp/docker.sock", "TESTCONTAINERS_HOST_OVERRIDE", "localhost");

    assertThat(DockerEnvironment.problem(env, true, false)).isEmpty();
    assertThat(DockerEnvironment.problem(Map.of(), false, true)).isEmpty();
  }

  @Test
  void localImagesNeedRyukDisabled() {
    Map<String, String> env =
        Map.of("DOCKER_HOST", "unix:///tmp/docker.sock", "SPECWATCH_IMAGE_MODE", "local");

    assertThat(DockerEnvironment.problem(env, false, false))
        .hasValueSatisfying(p -> assertThat(p).contains("TESTCONTAINERS_RYUK_DISABLED"));
    Map<String, String> fixed = new java.util.HashMap<>(env);
    fixed.put("TESTCONTAINERS_RYUK_DISABLED", "true");
    assertThat(DockerEnvironment.problem(fixed, false, false)).isEmpty();
  }

  @Test
  void theMessageSaysWhatToRun() {
    assertThat(DockerEnvironment.HOW_TO).contains("./specwatch test");
  }
}
