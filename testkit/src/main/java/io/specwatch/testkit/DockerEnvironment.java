package io.specwatch.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;

/**
 * Fails fast, with a message saying what to run, when the tests cannot reach a Docker engine. The
 * integration tests never skip: no engine is an error.
 */
final class DockerEnvironment {

  static final String HOW_TO =
      "Run the tests with ./specwatch test (it provides a Docker engine and the images), or by hand:"
          + " scripts/docker.sh up && scripts/images.sh build && eval \"$(scripts/docker.sh env)\"";

  private DockerEnvironment() {}

  /** Throws {@link IllegalStateException} unless Testcontainers can use a Docker engine. */
  static void requireDocker(Map<String, String> env) {
    problem(
            env,
            Files.exists(Path.of("/.dockerenv")),
            Files.exists(Path.of("/var/run/docker.sock")))
        .ifPresent(
            p -> {
              throw new IllegalStateException(p + ". " + HOW_TO);
            });
    if (!DockerClientFactory.instance().isDockerAvailable()) {
      throw new IllegalStateException(
          "No Docker engine answers at DOCKER_HOST=" + env.get("DOCKER_HOST") + ". " + HOW_TO);
    }
  }

  /** The configuration problem that would make Testcontainers fail or hang, if any. */
  static Optional<String> problem(
      Map<String, String> env, boolean insideContainer, boolean defaultSocketExists) {
    String dockerHost = env.get("DOCKER_HOST");
    if ((dockerHost == null || dockerHost.isBlank()) && !defaultSocketExists) {
      return Optional.of("DOCKER_HOST is not set and /var/run/docker.sock does not exist");
    }
    if (insideContainer && env.get("TESTCONTAINERS_HOST_OVERRIDE") == null) {
      // Without it Testcontainers pulls an image to find the gateway and hangs for minutes.
      return Optional.of(
          "TESTCONTAINERS_HOST_OVERRIDE is not set although this machine runs inside a container");
    }
    if ("local".equals(env.get("SPECWATCH_IMAGE_MODE"))
        && !"true".equalsIgnoreCase(env.get("TESTCONTAINERS_RYUK_DISABLED"))) {
      // Local images mean no registry: Testcontainers would try to pull its Ryuk image and fail.
      return Optional.of(
          "SPECWATCH_IMAGE_MODE=local (no image registry) but TESTCONTAINERS_RYUK_DISABLED is not true");
    }
    return Optional.empty();
  }
}
