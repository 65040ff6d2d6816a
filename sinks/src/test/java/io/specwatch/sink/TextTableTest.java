package io.specwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextTableTest {

  @Test
  void alignsColumnsAndPrintsNullAsDash() {
    String table =
        TextTable.format(
            List.of(
                List.of("deployment_id", "tau"),
                Arrays.asList("kimi", "2.0"),
                Arrays.asList("a-much-longer-id", null)));
    assertThat(table)
        .isEqualTo(
            "deployment_id     tau\n"
                + "----------------  ---\n"
                + "kimi              2.0\n"
                + "a-much-longer-id  -\n");
  }

  @Test
  void deploymentFilterIsEscaped() {
    assertThat(WindowQueries.where(java.util.Optional.of("x' OR 1=1 --")))
        .isEqualTo(" WHERE deployment_id = 'x\\' OR 1=1 --'");
  }
}
