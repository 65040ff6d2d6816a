package io.specwatch.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretsTest {

  @Test
  void secretKeysAreHiddenOthersKept() {
    Map<String, String> masked =
        Secrets.mask(
            Map.of(
                "sasl.jaas.config", "ScramLoginModule required password=\"s3cr3t\";",
                "ssl.truststore.password", "tpw",
                "ssl.key.password", "kpw",
                "basic.auth.user.info", "u:rpw",
                "sasl.oauthbearer.token.endpoint.url", "https://tok",
                "security.protocol", "SASL_SSL",
                "key.serializer", "org.apache.kafka.common.serialization.StringSerializer",
                "ssl.keystore.location", "/etc/ks.p12",
                "clickhouse.url", "https://ch:chpw@clickhouse:8443/db"));
    assertThat(masked)
        .containsEntry("sasl.jaas.config", Secrets.HIDDEN)
        .containsEntry("ssl.truststore.password", Secrets.HIDDEN)
        .containsEntry("ssl.key.password", Secrets.HIDDEN)
        .containsEntry("basic.auth.user.info", Secrets.HIDDEN)
        .containsEntry("sasl.oauthbearer.token.endpoint.url", Secrets.HIDDEN)
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("key.serializer", "org.apache.kafka.common.serialization.StringSerializer")
        .containsEntry("ssl.keystore.location", "/etc/ks.p12")
        .containsEntry("clickhouse.url", "https://[hidden]@clickhouse:8443/db");
    assertThat(masked.toString()).doesNotContain("s3cr3t", "tpw", "kpw", "rpw", "chpw");
  }

  @Test
  void urlUserInfoInExceptionMessagesIsHidden() {
    String msg = "cannot reach http://alice:pw1@registry:8080/apis and https://bob:pw2@x/y";
    assertThat(Secrets.maskText(msg))
        .isEqualTo("cannot reach http://[hidden]@registry:8080/apis and https://[hidden]@x/y")
        .doesNotContain("pw1", "pw2", "alice");
    assertThat(Secrets.maskText("http://registry:8080/apis"))
        .isEqualTo("http://registry:8080/apis");
  }
}
