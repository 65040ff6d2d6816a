package io.specwatch.sink.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.sink.clickhouse.ClickHouseError.Category;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClickHouseErrorTest {

  private static Category category(int code) {
    return new ClickHouseFailure("x", code, null).category();
  }

  @Test
  void classifiesByCode() {
    assertThat(category(ClickHouseFailure.NO_SERVER_CODE)).isEqualTo(Category.RETRIABLE);
    assertThat(category(252)).as("TOO_MANY_PARTS").isEqualTo(Category.RETRIABLE);
    assertThat(category(202)).as("TOO_MANY_SIMULTANEOUS_QUERIES").isEqualTo(Category.RETRIABLE);
    assertThat(category(241)).as("MEMORY_LIMIT_EXCEEDED").isEqualTo(Category.RETRIABLE);
    assertThat(category(159)).as("TIMEOUT_EXCEEDED").isEqualTo(Category.RETRIABLE);
    assertThat(category(27)).as("CANNOT_PARSE_INPUT_ASSERTION_FAILED").isEqualTo(Category.BAD_DATA);
    assertThat(category(53)).as("TYPE_MISMATCH").isEqualTo(Category.BAD_DATA);
    assertThat(category(395)).as("throwIf").isEqualTo(Category.BAD_DATA);
    assertThat(category(60)).as("UNKNOWN_TABLE").isEqualTo(Category.FATAL);
    assertThat(category(16)).as("NO_SUCH_COLUMN_IN_TABLE").isEqualTo(Category.FATAL);
    assertThat(category(516)).as("AUTHENTICATION_FAILED").isEqualTo(Category.FATAL);
    assertThat(category(123456)).as("unknown codes retry (bounded)").isEqualTo(Category.RETRIABLE);
    assertThat(ClickHouseError.of(123456)).isEqualTo(ClickHouseError.UNKNOWN);
  }

  @Test
  void codesAreUnique() {
    Set<Integer> seen = new HashSet<>();
    for (ClickHouseError e : ClickHouseError.values()) {
      assertThat(seen.add(e.code())).as(e.name()).isTrue();
      if (e != ClickHouseError.UNKNOWN) {
        assertThat(ClickHouseError.of(e.code())).isEqualTo(e);
      }
    }
  }

  @Test
  void dedupTokenOnlyFor22Point2AndLater() {
    assertThat(ClickHouseSql.supportsDedupToken("18.16.1")).isFalse();
    assertThat(ClickHouseSql.supportsDedupToken("22.1.3.7")).isFalse();
    assertThat(ClickHouseSql.supportsDedupToken("22.2.1")).isTrue();
    assertThat(ClickHouseSql.supportsDedupToken("25.8.4.13")).isTrue();
    assertThat(ClickHouseSql.supportsDedupToken("garbage")).isFalse();
  }
}
