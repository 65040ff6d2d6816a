package io.specwatch.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
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
  void withoutIsTheFilteredMapWithItsOwnEncoding(
      @ForAll @Size(max = 20) List<@StringLength(max = 12) String> names,
      @ForAll @Size(max = 20) List<@StringLength(max = 12) String> texts,
      @ForAll @Size(max = 8) Set<@StringLength(max = 12) String> extra,
      @ForAll boolean spans,
      @ForAll Random random)
      throws IOException {
    // distinct names, each with a text; the fields as a map or as spans of one line
    LinkedHashMap<String, String> ordered = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      ordered.putIfAbsent(names.get(i), i < texts.size() ? texts.get(i) : "");
    }
    RawFields fields;
    if (spans) {
      StringBuilder line = new StringBuilder("x");
      String[] n = ordered.keySet().toArray(new String[0]);
      int[] at = new int[2 * n.length];
      for (int i = 0; i < n.length; i++) {
        line.append(", ").append(n[i]).append(": ");
        at[2 * i] = line.length();
        line.append(ordered.get(n[i]));
        at[2 * i + 1] = line.length();
      }
      // the encoding given by the caller, or written from the spans when first asked for
      fields =
          RawFields.ofSpans(line.toString(), n, at, random.nextBoolean() ? encode(ordered) : null);
    } else {
      fields = RawFields.owning(new LinkedHashMap<>(ordered));
    }
    // drop some present names and some absent ones
    Set<String> drop = new HashSet<>(extra);
    for (String name : ordered.keySet()) {
      if (random.nextBoolean()) {
        drop.add(name);
      }
    }
    LinkedHashMap<String, String> expected = new LinkedHashMap<>(ordered);
    expected.keySet().removeAll(drop);

    RawFields kept = fields.without(drop);
    assertThat(kept).isEqualTo(expected);
    assertThat(kept.keySet()).containsExactlyElementsOf(expected.keySet());
    assertThat(kept.avroBinary()).isEqualTo(encode(expected));
    assertThat(fields.without(new HashSet<>(drop))).isSameAs(kept); // kept for an equal set
    for (String name : ordered.keySet()) {
      assertThat(fields.has(name)).isTrue();
      assertThat(kept.has(name)).isEqualTo(!drop.contains(name));
    }
    if (expected.size() == ordered.size()) {
      assertThat(kept).isSameAs(fields);
    }
    assertThat(fields).isEqualTo(ordered); // unchanged
    assertThat(fields.avroBinary()).isEqualTo(encode(ordered));
  }

  private static byte[] encode(Map<String, String> map) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    new GenericDatumWriter<Map<String, String>>(MAP).write(map, encoder);
    encoder.flush();
    return out.toByteArray();
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
