package io.specwatch.testkit;

import java.util.Map;
import java.util.Objects;
import org.testcontainers.utility.DockerImageName;

/**
 * The images the shared containers run: {@code SPECWATCH_KAFKA_IMAGE}, {@code
 * SPECWATCH_CLICKHOUSE_IMAGE} and {@code SPECWATCH_REGISTRY_IMAGE} (written by {@code
 * scripts/images.sh build}, exported by {@code scripts/docker.sh env}), else the pinned official
 * images. A local image stands in for the official one it replaces.
 */
public record ContainerImages(String kafka, String clickhouse, String registry) {

  public static final String KAFKA_ENV = "SPECWATCH_KAFKA_IMAGE";
  public static final String CLICKHOUSE_ENV = "SPECWATCH_CLICKHOUSE_IMAGE";
  public static final String REGISTRY_ENV = "SPECWATCH_REGISTRY_IMAGE";

  public static final String OFFICIAL_KAFKA = "apache/kafka:4.1.0";
  public static final String OFFICIAL_CLICKHOUSE = "clickhouse/clickhouse-server:25.8";
  public static final String OFFICIAL_REGISTRY = "apicurio/apicurio-registry:3.0.9";

  public ContainerImages {
    requireImage(KAFKA_ENV, kafka);
    requireImage(CLICKHOUSE_ENV, clickhouse);
    requireImage(REGISTRY_ENV, registry);
  }

  /** Images named by the environment, official defaults for the variables that are absent. */
  public static ContainerImages fromEnv(Map<String, String> env) {
    Objects.requireNonNull(env, "env");
    return new ContainerImages(
        orDefault(env, KAFKA_ENV, OFFICIAL_KAFKA),
        orDefault(env, CLICKHOUSE_ENV, OFFICIAL_CLICKHOUSE),
        orDefault(env, REGISTRY_ENV, OFFICIAL_REGISTRY));
  }

  public DockerImageName kafkaImage() {
    return DockerImageName.parse(kafka).asCompatibleSubstituteFor("apache/kafka");
  }

  public DockerImageName clickhouseImage() {
    return DockerImageName.parse(clickhouse)
        .asCompatibleSubstituteFor("clickhouse/clickhouse-server");
  }

  public DockerImageName registryImage() {
    return DockerImageName.parse(registry);
  }

  private static String orDefault(Map<String, String> env, String name, String fallback) {
    String value = env.get(name);
    return value == null || value.isEmpty() ? fallback : value;
  }

  private static void requireImage(String setting, String image) {
    if (image == null || image.isBlank()) {
      throw new IllegalArgumentException(setting + " must name an image, got: '" + image + "'");
    }
    if (!image.equals(image.strip()) || image.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException(
          setting + " must not contain whitespace, got: '" + image + "'");
    }
    try {
      DockerImageName.parse(image).assertValid();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          setting + " is not a valid image name: '" + image + "' (" + e.getMessage() + ")", e);
    }
  }
}
