package io.specwatch.sink.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import com.clickhouse.client.api.ServerException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ClickHouseSqlTest {

  @Test
  void parsesTabSeparatedWithNamesIncludingNullAndEscapes() throws Exception {
    String body = "a\tb\tc\nx\\ty\t\\N\tline\\nbreak\n";
    assertThat(
            ClickHouseSql.parseTsv(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))))
        .containsExactly(Arrays.asList("a", "b", "c"), Arrays.asList("x\ty", null, "line\nbreak"));
  }

  @Test
  void readsTheCodeFromTheBodyWhenTheHeaderHasNone() {
    ServerException old =
        new ServerException(0, "Code: 81, e.displayText() = DB::Exception: Database x", 404, "q");
    assertThat(ClickHouseFailure.serverCode(old)).isEqualTo(81);
    assertThat(ClickHouseFailure.serverCode(new ServerException(60, "Code: 81", 404, "q")))
        .isEqualTo(60);
  }

  @Test
  void classifiesErrorsByCode() {
    assertThat(new ClickHouseFailure("syntax", 62, null).isRetriable()).isFalse();
    assertThat(new ClickHouseFailure("type", 53, null).isRetriable()).isFalse();
    assertThat(new ClickHouseFailure("too many parts", 252, null).isRetriable()).isTrue();
    assertThat(
            new ClickHouseFailure("refused", ClickHouseFailure.NO_SERVER_CODE, null).isRetriable())
        .isTrue();
  }
}
