package io.specwatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.testkit.TestTls;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * One app run in this JVM (in {@link SaslPipelineIT}): its exit code and the log lines written
 * while it ran.
 */
record AppRun(String app, int exit, String logged) {

  /** Runs {@code cli} and keeps what {@code logs} captured meanwhile. */
  static AppRun of(CapturingAppender logs, String app, IntSupplier cli) {
    int before = logs.text.length();
    int exit = cli.getAsInt();
    return new AppRun(app, exit, logs.text.substring(before));
  }

  /**
   * The app logged its own effective Kafka config once, with every secret masked, and no secret
   * anywhere in its log lines.
   */
  void assertMaskedEffectiveConfig(TestTls.Material tls) {
    assertThat(exit()).as(app() + " exit code\n" + logged()).isZero();
    List<String> lines =
        logged().lines().filter(l -> l.startsWith("effective Kafka config: ")).toList();
    assertThat(lines).as(app() + ": its effective Kafka config line").hasSize(1);
    assertThat(lines.get(0))
        .as(app())
        .contains(
            "security.protocol=SASL_SSL",
            "sasl.mechanism=SCRAM-SHA-512",
            "sasl.jaas.config=[hidden]",
            "ssl.keystore.password=[hidden]",
            "ssl.truststore.password=[hidden]",
            "ssl.key.password=[hidden]",
            "basic.auth.user.info=[hidden]",
            "ssl.truststore.location=" + tls.clientTruststore());
    assertThat(logged())
        .as(app())
        .doesNotContain(SaslClientArgs.PASSWORD, SaslClientArgs.REGISTRY_PASSWORD);
    for (String secret : tls.passwords()) {
      assertThat(logged()).as(app()).doesNotContain(secret);
    }
  }
}
