package io.specwatch.charttests;

import java.util.List;

/** The values combinations the chart is rendered with. */
final class ValuesScenarios {
  static final String DEFAULTS = "";

  static final String SASL_INLINE =
      """
      kafka:
        bootstrap: kafka-0.kafka:9093
        clientProperties:
          security.protocol: SASL_SSL
          sasl.mechanism: SCRAM-SHA-512
          sasl.jaas.config: >-
            org.apache.kafka.common.security.scram.ScramLoginModule required
            username="specwatch" password="s3cret";
          ssl.truststore.location: /etc/specwatch/kafka-tls/truststore.p12
        tlsSecret: kafka-ca
      clickhouse:
        user: specwatch
        password: ch-pass
      """;

  static final String EXISTING_SECRETS =
      """
      kafka:
        existingSecret: kafka-client-props
        existingSecretKey: kafka.properties
      clickhouse:
        existingSecret: clickhouse-creds
        existingSecretUserKey: username
        existingSecretPasswordKey: pw
      """;

  static final String MONITORING_ON =
      """
      metrics:
        serviceMonitor:
          enabled: true
          labels:
            release: kube-prometheus-stack
        grafanaDashboard:
          enabled: true
      streams:
        staticMembership:
          enabled: true
        properties:
          commit.interval.ms: 500
      """;

  static final String SHIPPER_ONLY =
      """
      streams:
        enabled: false
      sink:
        enabled: false
      shipper:
        deployment: kimi-eagle3
        logDirs:
          - name: sglang
            hostPath: /var/log/sglang
            globs: ["*.log", "*.log.1"]
          - name: vllm
            hostPath: /data/vllm/logs
            globs: ["server-*.log"]
        checkpoint:
          type: emptyDir
          mountPath: /var/lib/specwatch/checkpoints
      """;

  static final List<String> ALL =
      List.of(DEFAULTS, SASL_INLINE, EXISTING_SECRETS, MONITORING_ON, SHIPPER_ONLY);

  private ValuesScenarios() {}
}
