package io.specwatch.serde;

import org.apache.avro.Schema;
import org.apache.kafka.common.config.ConfigException;

/** How a serializer names the registry subject of a record (Confluent's three strategies). */
public enum SubjectNameStrategy {
  /** {@code <topic>-key} / {@code <topic>-value}: one schema lineage per topic (the default). */
  TOPIC_NAME {
    @Override
    public String subject(String topic, boolean isKey, Schema schema) {
      return topic + (isKey ? "-key" : "-value");
    }
  },
  /** The record's full name: one lineage per record type, shared across topics. */
  RECORD_NAME {
    @Override
    public String subject(String topic, boolean isKey, Schema schema) {
      return schema.getFullName();
    }
  },
  /** {@code <topic>-<record full name>}: several record types per topic. */
  TOPIC_RECORD_NAME {
    @Override
    public String subject(String topic, boolean isKey, Schema schema) {
      return topic + "-" + schema.getFullName();
    }
  };

  public static final String KEY_STRATEGY = "key.subject.name.strategy";
  public static final String VALUE_STRATEGY = "value.subject.name.strategy";

  /** The subject for a record of {@code schema} on {@code topic}. */
  public abstract String subject(String topic, boolean isKey, Schema schema);

  /**
   * Parses {@code TopicNameStrategy}, {@code RecordNameStrategy}, {@code TopicRecordNameStrategy},
   * with or without Confluent's package prefix, or this enum's constant names.
   */
  public static SubjectNameStrategy parse(String key, String value) {
    if (value == null) {
      return TOPIC_NAME;
    }
    String simple = value.substring(value.lastIndexOf('.') + 1).trim();
    return switch (simple) {
      case "TopicNameStrategy", "TOPIC_NAME" -> TOPIC_NAME;
      case "RecordNameStrategy", "RECORD_NAME" -> RECORD_NAME;
      case "TopicRecordNameStrategy", "TOPIC_RECORD_NAME" -> TOPIC_RECORD_NAME;
      default ->
          throw new ConfigException(
              key,
              value,
              "supported: TopicNameStrategy, RecordNameStrategy, TopicRecordNameStrategy");
    };
  }
}
