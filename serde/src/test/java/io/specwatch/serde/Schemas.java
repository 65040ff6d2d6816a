package io.specwatch.serde;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.avro.Schema;

/** Variants of a record schema for evolution tests. */
final class Schemas {
  private Schemas() {}

  /** {@code schema} without the named fields. */
  static Schema without(Schema schema, Set<String> names) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : schema.getFields()) {
      if (!names.contains(f.name())) {
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    return record(schema, fields);
  }

  /** {@code schema} plus one field; {@code defaultValue} null means "no default". */
  static Schema with(Schema schema, String name, Schema type, Object defaultValue) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : schema.getFields()) {
      fields.add(new Schema.Field(f, f.schema()));
    }
    fields.add(
        defaultValue == null
            ? new Schema.Field(name, type, null)
            : new Schema.Field(name, type, null, defaultValue));
    return record(schema, fields);
  }

  private static Schema record(Schema template, List<Schema.Field> fields) {
    Schema copy =
        Schema.createRecord(
            template.getName(), template.getDoc(), template.getNamespace(), false, fields);
    template.getObjectProps().forEach(copy::addProp);
    return copy;
  }
}
