package io.specwatch.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;

class KafkaSecurityOptionsTest {

  static final class App {
    @Mixin KafkaOptions kafka = new KafkaOptions();
  }

  private static KafkaOptions parse(String... args) {
    return CommandLine.populateCommand(new App(), args).kafka;
  }

  @Test
  void scramOptionsBecomeClientSettings(@TempDir Path tmp) throws Exception {
    Path pw = tmp.resolve("pw");
    Files.writeString(pw, "p\"w1\n");
    Map<String, String> p =
        parse(
                "--kafka-sasl-mechanism", "scram-sha-512",
                "--kafka-sasl-username", "alice",
                "--kafka-sasl-password-file", pw.toString())
            .rawProperties();
    assertThat(p)
        .containsEntry("security.protocol", "SASL_PLAINTEXT")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsEntry(
            "sasl.jaas.config",
            "org.apache.kafka.common.security.scram.ScramLoginModule required"
                + " username=\"alice\" password=\"p\\\"w1\";");
  }

  @Test
  void tlsAndRegistryOptionsAndKWinsOverOptions(@TempDir Path tmp) throws Exception {
    Path ts = Files.writeString(tmp.resolve("ts.p12"), "x");
    Map<String, String> p =
        parse(
                "--kafka-security-protocol", "SSL",
                "--kafka-truststore", ts.toString(),
                "--kafka-truststore-password", "tpw",
                "--registry-user", "reg",
                "--registry-password", "rpw",
                "-K", "ssl.endpoint.identification.algorithm=")
            .rawProperties();
    assertThat(p)
        .containsEntry("security.protocol", "SSL")
        .containsEntry("ssl.truststore.location", ts.toString())
        .containsEntry("ssl.truststore.password", "tpw")
        .containsEntry("basic.auth.credentials.source", "USER_INFO")
        .containsEntry("basic.auth.user.info", "reg:rpw")
        .containsEntry("ssl.endpoint.identification.algorithm", "");
    assertThat(
            parse("--kafka-security-protocol", "SSL", "-K", "security.protocol=PLAINTEXT")
                .rawProperties())
        .containsEntry("security.protocol", "PLAINTEXT");
  }

  @Test
  void storePasswordsCanComeFromFilesAsAMountedSecretProvidesThem(@TempDir Path tmp)
      throws Exception {
    Path ts = Files.writeString(tmp.resolve("ts.p12"), "x");
    Path ks = Files.writeString(tmp.resolve("ks.p12"), "x");
    Path tpw = Files.writeString(tmp.resolve("truststore.password"), "t-pw\n");
    Path kpw = Files.writeString(tmp.resolve("keystore.password"), "k-pw\n");
    Path keypw = Files.writeString(tmp.resolve("key.password"), "key-pw");
    KafkaOptions o =
        parse(
            "--kafka-security-protocol", "SSL",
            "--kafka-truststore", ts.toString(),
            "--kafka-truststore-password-file", tpw.toString(),
            "--kafka-keystore", ks.toString(),
            "--kafka-keystore-password-file", kpw.toString(),
            "--kafka-key-password-file", keypw.toString());
    assertThat(o.rawProperties())
        .containsEntry("ssl.truststore.password", "t-pw")
        .containsEntry("ssl.keystore.password", "k-pw")
        .containsEntry("ssl.key.password", "key-pw");
    assertThat(o.describe()).doesNotContain("t-pw", "k-pw", "key-pw");
    assertThatThrownBy(
            () ->
                parse(
                        "--kafka-keystore-password",
                        "inline",
                        "--kafka-keystore-password-file",
                        kpw.toString())
                    .rawProperties())
        .hasMessageContaining("--kafka-keystore-password-file")
        .hasMessageContaining("give only one");
    assertThatThrownBy(
            () ->
                parse("--kafka-truststore-password-file", tmp.resolve("missing").toString())
                    .rawProperties())
        .hasMessageContaining("SPECWATCH_KAFKA_TRUSTSTORE_PASSWORD_FILE");
  }

  @Test
  void inconsistentCombinationsFailNamingTheSetting() {
    assertThatThrownBy(() -> parse("--kafka-sasl-mechanism", "SCRAM-SHA-256").rawProperties())
        .hasMessageContaining("--kafka-sasl-username");
    assertThatThrownBy(() -> parse("--kafka-sasl-username", "a").rawProperties())
        .hasMessageContaining("--kafka-sasl-mechanism");
    assertThatThrownBy(() -> parse("--kafka-sasl-mechanism", "GSSAPI").rawProperties())
        .hasMessageContaining("--kafka-sasl-mechanism");
    assertThatThrownBy(
            () ->
                parse("--kafka-security-protocol", "SASL_SSL", "-K", "sasl.mechanism=SCRAM-SHA-256")
                    .rawProperties())
        .hasMessageContaining("security.protocol SASL_SSL with sasl.mechanism SCRAM-SHA-256");
    assertThatThrownBy(() -> parse("--kafka-security-protocol", "TLS").rawProperties())
        .hasMessageContaining("security.protocol");
    assertThatThrownBy(() -> parse("-K", "sasl.mechanism=PLAIN").rawProperties())
        .hasMessageContaining("sasl.mechanism");
    assertThatThrownBy(() -> parse("--kafka-truststore", "/no/such.p12").rawProperties())
        .hasMessageContaining("ssl.truststore.location (--kafka-truststore)");
    assertThatThrownBy(() -> parse("--registry-password", "x").rawProperties())
        .hasMessageContaining("--registry-user");
  }

  @Test
  void describeMasksEverySecret() {
    String d =
        parse(
                "--registry-url", "http://ru:urlpw@registry:8080/apis/ccompat/v7",
                "--kafka-sasl-mechanism", "PLAIN",
                "--kafka-sasl-username", "alice",
                "--kafka-sasl-password", "kpw-secret",
                "--registry-user", "reg",
                "--registry-password", "rpw-secret")
            .describe();
    assertThat(d)
        .contains("sasl.mechanism=PLAIN", "sasl.jaas.config=[hidden]", "http://[hidden]@registry")
        .doesNotContain("kpw-secret", "rpw-secret", "urlpw");
  }
}
