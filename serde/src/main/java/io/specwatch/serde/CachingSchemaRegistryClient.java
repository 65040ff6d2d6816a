package io.specwatch.serde;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * Caches the immutable answers of a registry: (subject, schema) to id and id to schema. Latest
 * versions and compatibility answers change over time and are not cached.
 */
public final class CachingSchemaRegistryClient implements SchemaRegistryClient {
  private record SubjectSchema(String subject, Schema schema) {}

  private final SchemaRegistryClient delegate;
  private final Map<SubjectSchema, Integer> ids = new ConcurrentHashMap<>();
  private final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();

  public CachingSchemaRegistryClient(SchemaRegistryClient delegate) {
    this.delegate = delegate;
  }

  @Override
  public int register(String subject, Schema schema) {
    // no computeIfAbsent: never hold a map lock across a remote call
    SubjectSchema key = new SubjectSchema(subject, schema);
    Integer cached = ids.get(key);
    if (cached != null) {
      return cached;
    }
    int id = remember(delegate.register(subject, schema), schema);
    ids.put(key, id);
    return id;
  }

  @Override
  public Schema getSchemaById(int id) {
    Schema cached = schemas.get(id);
    if (cached != null) {
      return cached;
    }
    Schema schema = delegate.getSchemaById(id);
    schemas.put(id, schema);
    return schema;
  }

  @Override
  public RegisteredSchema lookup(String subject, Schema schema) {
    RegisteredSchema found = delegate.lookup(subject, schema);
    ids.putIfAbsent(new SubjectSchema(subject, schema), found.id());
    remember(found.id(), found.schema());
    return found;
  }

  @Override
  public RegisteredSchema getLatest(String subject) {
    RegisteredSchema latest = delegate.getLatest(subject);
    remember(latest.id(), latest.schema());
    return latest;
  }

  @Override
  public boolean testCompatibility(String subject, Schema schema) {
    return delegate.testCompatibility(subject, schema);
  }

  @Override
  public void setCompatibility(String subject, String level) {
    delegate.setCompatibility(subject, level);
  }

  private int remember(int id, Schema schema) {
    schemas.putIfAbsent(id, schema);
    return id;
  }

  @Override
  public void close() {
    delegate.close();
  }
}
