package io.specwatch.charttests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** values.schema.json: Helm rejects bad values before rendering anything. */
class ValuesSchemaTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "image:\n  tag: latest\n",
        "streams:\n  terminationGracePeriodSeconds: 30\n",
        "shipper:\n  shutdownTimeoutSeconds: 0\n",
        "shipper:\n  terminationGracePeriodSeconds: 10s\n",
        "health:\n  port: http\n",
        "shipper:\n  checkpoint:\n    type: pvc\n    mountPath: /x\n",
        "sink:\n  enabled: maybe\n",
        "unknownTopLevelKey: 1\n",
        "schemaRegistry:\n  url: registry:8081\n",
        "sink:\n  batchSize: 2000000\n",
      })
  void rejectsABadValue(String values) {
    assertThatThrownBy(() -> Chart.renderText(values))
        .hasMessageContaining("values don't meet the specifications of the schema");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "image:\n  tag: 0.1.1\n",
        "streams:\n  terminationGracePeriodSeconds: 31\n",
        "shipper:\n  checkpoint:\n    type: emptyDir\n    mountPath: /x\n",
        "sink:\n  batchSize: 1000000\n",
      })
  void acceptsAGoodValue(String values) {
    assertThat(Chart.renderText(values)).contains("kind: DaemonSet");
  }
}
