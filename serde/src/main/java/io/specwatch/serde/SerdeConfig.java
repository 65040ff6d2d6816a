package io.specwatch.serde;

import java.util.Map;
import java.util.Objects;

/**
 * Validated settings of one Avro serializer or deserializer.
 *
 * @param registry registry client settings
 * @param autoRegister register the record's schema when serializing ({@code auto.register.schemas})
 * @param useLatestVersion write with the subject's latest schema ({@code use.latest.version})
 * @param subjectNameStrategy strategy for this side (key or value)
 */
public record SerdeConfig(
    RegistryConfig registry,
    boolean autoRegister,
    boolean useLatestVersion,
    SubjectNameStrategy subjectNameStrategy) {

  public static final String AUTO_REGISTER = "auto.register.schemas";
  public static final String USE_LATEST_VERSION = "use.latest.version";

  public SerdeConfig {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(subjectNameStrategy, "subjectNameStrategy");
  }

  /** Parses and validates; throws a {@code ConfigException} naming the bad setting. */
  public static SerdeConfig from(Map<String, ?> config, boolean isKey) {
    String strategyKey =
        isKey ? SubjectNameStrategy.KEY_STRATEGY : SubjectNameStrategy.VALUE_STRATEGY;
    return new SerdeConfig(
        RegistryConfig.from(config),
        ConfigValues.bool(config, AUTO_REGISTER, true),
        ConfigValues.bool(config, USE_LATEST_VERSION, false),
        SubjectNameStrategy.parse(strategyKey, ConfigValues.string(config, strategyKey, null)));
  }
}
