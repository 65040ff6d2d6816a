package io.specwatch.ingest.ship;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Start-up check of the topics a shipper writes to: a topic that does not exist on a broker that
 * does not create topics ({@code auto.create.topics.enable=false}) fails the start at once, naming
 * the topic and the setting, instead of every send waiting {@code max.block.ms} for metadata (and
 * {@code tail} re-sending such records forever). A missing topic on a broker that creates topics is
 * logged and left to the broker. When the check itself cannot run (broker not reachable yet, no
 * permission to describe topics or the broker config) it logs a warning and lets the shipper start:
 * {@code tail} must start while Kafka is down and catch up later.
 */
public final class TopicCheck {

  private static final Logger LOG = LoggerFactory.getLogger(TopicCheck.class);

  /** Broker setting that decides whether a produce to an unknown topic creates it. */
  static final String AUTO_CREATE = "auto.create.topics.enable";

  private TopicCheck() {}

  /** The topics of a shipper config with their settings. */
  public static Map<String, String> topics(ShipConfig config) {
    Map<String, String> topics = new LinkedHashMap<>();
    topics.put(config.decodeTopic(), "topic (SPECWATCH_DECODE_TOPIC)");
    topics.putIfAbsent(config.dlqTopic(), "dlq-topic (SPECWATCH_DLQ_TOPIC)");
    topics.putIfAbsent(config.requestTopic(), "request-topic (SPECWATCH_REQUEST_TOPIC)");
    topics.putIfAbsent(config.runContextTopic(), "run-context-topic (SPECWATCH_RUN_CONTEXT_TOPIC)");
    return topics;
  }

  /**
   * Checks that every topic exists or will be created by the broker.
   *
   * @param clientProperties the producer's properties (bootstrap and security settings are used)
   * @param topics topic name -> the setting that named it
   * @throws IllegalArgumentException when a topic is missing and the broker does not create topics
   */
  public static void requireTopics(
      Properties clientProperties, Map<String, String> topics, Duration timeout) {
    Properties admin = new Properties();
    for (String key : clientProperties.stringPropertyNames()) {
      if (AdminClientConfig.configNames().contains(key)) {
        admin.put(key, clientProperties.getProperty(key));
      }
    }
    admin.put(AdminClientConfig.CLIENT_ID_CONFIG, "specwatch-ingest-topic-check");
    int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(ms));
    admin.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(ms));
    try (Admin client = Admin.create(admin)) {
      List<String> missing = missing(client, topics, timeout);
      if (missing.isEmpty()) {
        return;
      }
      String autoCreate = autoCreate(client, timeout);
      if ("false".equalsIgnoreCase(autoCreate)) {
        String topic = missing.get(0);
        throw new IllegalArgumentException(
            "topic '"
                + topic
                + "' (setting '"
                + topics.get(topic)
                + "') does not exist and the broker does not create topics ("
                + AUTO_CREATE
                + "=false): create it first"
                + (missing.size() > 1
                    ? " (also missing: " + missing.subList(1, missing.size()) + ")"
                    : ""));
      }
      if (autoCreate == null) {
        LOG.warn(
            "topics {} do not exist and the broker's {} cannot be read; shipping starts and the"
                + " producer reports what fails",
            missing,
            AUTO_CREATE);
      } else {
        LOG.info(
            "topics {} do not exist yet; the broker creates them on first use ({}={})",
            missing,
            AUTO_CREATE,
            autoCreate);
      }
    } catch (CheckUnavailable e) {
      LOG.warn(
          "cannot check that topics {} exist ({}); shipping starts and the producer reports"
              + " what fails",
          topics.keySet(),
          e.getMessage());
    }
  }

  private static List<String> missing(Admin client, Map<String, String> topics, Duration timeout) {
    Map<String, KafkaFuture<org.apache.kafka.clients.admin.TopicDescription>> described =
        client.describeTopics(topics.keySet()).topicNameValues();
    List<String> missing = new ArrayList<>();
    for (String topic : topics.keySet()) {
      try {
        described.get(topic).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof UnknownTopicOrPartitionException) {
          missing.add(topic);
        } else {
          throw new CheckUnavailable("describing topic '" + topic + "': " + e.getCause());
        }
      } catch (TimeoutException e) {
        throw new CheckUnavailable("describing topic '" + topic + "' timed out after " + timeout);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CheckUnavailable("interrupted");
      }
    }
    return missing;
  }

  /** The broker's auto.create.topics.enable, or null when it cannot be read. */
  private static String autoCreate(Admin client, Duration timeout) {
    try {
      long ms = timeout.toMillis();
      List<Node> nodes =
          new ArrayList<>(client.describeCluster().nodes().get(ms, TimeUnit.MILLISECONDS));
      if (nodes.isEmpty()) {
        return null;
      }
      ConfigResource broker =
          new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(nodes.get(0).id()));
      Config config =
          client.describeConfigs(List.of(broker)).all().get(ms, TimeUnit.MILLISECONDS).get(broker);
      ConfigEntry entry = config == null ? null : config.get(AUTO_CREATE);
      return entry == null ? null : entry.value();
    } catch (ExecutionException | TimeoutException e) {
      LOG.debug("cannot read the broker's {}: {}", AUTO_CREATE, e.toString());
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** The check could not run; shipping starts anyway. */
  private static final class CheckUnavailable extends RuntimeException {
    CheckUnavailable(String message) {
      super(message, null, false, false);
    }
  }
}
