package io.specwatch.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ClickHouseIT {

  @Test
  void reportsItsVersion() {
    assertThat(SpecwatchContainers.clickhouseVersion()).matches("\\d+\\.\\d+(\\.\\d+)*");
  }

  @Test
  void aFailingStatementThrowsWithTheServerMessage() {
    String url = SpecwatchContainers.clickhouseHttpUrl();

    assertThatThrownBy(() -> ClickHouseHttp.query(url, "SELECT * FROM no_such_db.no_such_table"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("HTTP")
        .hasMessageContaining("no_such_db");
  }

  @Test
  void createsInsertsAndReadsBackInAUniqueDatabase() {
    String url = SpecwatchContainers.clickhouseHttpUrl();
    String db = SpecwatchContainers.uniqueName("it_db");

    ClickHouseHttp.query(url, "CREATE DATABASE " + db);
    ClickHouseHttp.query(
        url,
        "CREATE TABLE "
            + db
            + ".probe (deployment String, tau Float64) ENGINE = MergeTree ORDER BY deployment");
    ClickHouseHttp.query(url, "INSERT INTO " + db + ".probe VALUES ('a', 2.0), ('b', 3.0)");

    String rows =
        ClickHouseHttp.query(
            url, "SELECT count(), sum(tau) FROM " + db + ".probe FORMAT TabSeparated");
    assertThat(rows.strip()).isEqualTo("2\t5");
    ClickHouseHttp.query(url, "DROP DATABASE " + db);
  }
}
