package io.specwatch.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

class RawFieldsProperties {

  private static final Schema MAP =
      new Schema.Parser().parse("{\"type\":\"map\",\"values\":\"string\"}");

  @Property
  void avroBinaryIsWhatAvrosWriterWritesForTheSameMap(
      @ForAll @Size(max = 40) Map<String, String> map) throws IOException {
    LinkedHashMap<String, String> ordered = new LinkedHashMap<>(map);
    RawFields fields = RawFields.owning(new LinkedHashMap<>(ordered));

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    new GenericDatumWriter<Map<String, String>>(MAP).write(ordered, encoder);
    encoder.flush();

    assertThat(fields.avroBinary()).isEqualTo(out.toByteArray());
    assertThat(fields).isEqualTo(ordered);
    assertThat(fields.keySet()).containsExactlyElementsOf(ordered.keySet());
    assertThat(RawFields.copyOf(fields)).isSameAs(fields);
    assertThat(RawFields.copyOf(ordered)).isEqualTo(fields);
  }

  @Property
  void lineTerminatorsReasonNamesTheFirstTerminatorLikeACharLoop(@ForAll String line) {
    int first = -1;
    for (int i = 0; i < line.length() && first < 0; i++) {
      char c = line.charAt(i);
      if (c == '\r' || c == '\n' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
        first = i;
      }
    }
    String reason = LineTerminators.reason(line);
    if (first < 0) {
      assertThat(reason).isNull();
    } else {
      assertThat(reason)
          .contains(String.format("U+%04X", (int) line.charAt(first)))
          .contains("at char " + first + ":");
    }
  }
}
