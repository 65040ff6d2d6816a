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

  /** SASL_SSL + mutual TLS + registry auth, every password a file of a mounted Secret. */
  static final String SECURITY_FROM_SECRETS =
      """
      kafka:
        bootstrap: kafka-0.kafka:9093
        tlsSecret: kafka-tls
        security:
          protocol: SASL_SSL
          sasl:
            mechanism: SCRAM-SHA-512
            username: specwatch
            passwordSecret: kafka-scram
            passwordSecretKey: scram-password
          tls:
            truststoreKey: truststore.p12
            truststoreType: PKCS12
            truststorePasswordKey: truststore.password
            keystoreKey: keystore.p12
            keystoreType: PKCS12
            keystorePasswordKey: keystore.password
            keyPasswordKey: key.password
      schemaRegistry:
        url: https://registry.example:8443/apis/ccompat/v7
        username: registry-reader
        passwordSecret: registry-auth
      """;

  /** The newer app options: run context, baselines, topics, sink tables. */
  static final String APP_OPTIONS =
      """
      topics:
        runContext: prod.run-context.v1
        requestAcceptance: prod.request-acceptance.v1
        deadLetter: prod.dead-letter.v1
      shipper:
        runContext:
          settings:
            model: kimi-k2.5
            specMethod: EAGLE3
            tp: 8
            hardwareClass: h100-8x
          file: |
            {"model": "kimi-k2.5", "spec_method": "EAGLE3", "tp": 8}
      streams:
        window: 2m
        grace: 5m
        dedupRetention: 20m
        maxEventAhead: 2h
        baselineMaxAge: 30m
        staticBaselines:
          - "deepseek-v3|h100-8x|8|*=31.5"
          - "llama-70b|h100-8x|4|2-4=22"
      sink:
        groupId: prod-sink
        batchSize: 50000
        tables: [window_results, alerts, decode_events]
        insertFormat: json
      """;

  static final List<String> ALL =
      List.of(
          DEFAULTS,
          SASL_INLINE,
          EXISTING_SECRETS,
          MONITORING_ON,
          SHIPPER_ONLY,
          SECURITY_FROM_SECRETS,
          APP_OPTIONS);

  private ValuesScenarios() {}
}
