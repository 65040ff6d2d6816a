package io.specwatch.serde;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * An in-process registry for unit tests ({@code mock://scope} URLs), following the Confluent
 * registry's rules: one id per distinct schema across subjects, versions per subject, and the
 * subject's compatibility level (default BACKWARD) enforced on register. Clients of the same scope
 * share state, as serializers and deserializers of one test must.
 */
public final class InMemorySchemaRegistryClient implements SchemaRegistryClient {
  private static final Map<String, InMemorySchemaRegistryClient> SCOPES = new ConcurrentHashMap<>();

  private final Map<String, Integer> idsBySchema = new HashMap<>();
  private final Map<Integer, Schema> schemasById = new HashMap<>();
  private final Map<String, List<Integer>> versionsBySubject = new HashMap<>();
  private final Map<String, Compatibility> compatibilityBySubject = new HashMap<>();
  private final Compatibility defaultCompatibility;

  public InMemorySchemaRegistryClient() {
    this(Compatibility.BACKWARD);
  }

  private InMemorySchemaRegistryClient(Compatibility defaultCompatibility) {
    this.defaultCompatibility = defaultCompatibility;
  }

  /** The shared registry of {@code scope}. */
  public static InMemorySchemaRegistryClient forScope(String scope) {
    return SCOPES.computeIfAbsent(scope, s -> new InMemorySchemaRegistryClient());
  }

  /** Forgets the registry of {@code scope}. */
  public static void dropScope(String scope) {
    SCOPES.remove(scope);
  }

  @Override
  public synchronized int register(String subject, Schema schema) {
    String key = key(schema);
    List<Integer> versions = versionsBySubject.getOrDefault(subject, List.of());
    Integer existing = idsBySchema.get(key);
    if (existing != null && versions.contains(existing)) {
      return existing;
    }
    if (!compatible(subject, schema)) {
      throw new SchemaRegistryException(
          409,
          SchemaRegistryException.INCOMPATIBLE,
          "Schema being registered is incompatible with an earlier schema for subject " + subject);
    }
    int id = existing != null ? existing : idsBySchema.size() + 1;
    idsBySchema.put(key, id);
    schemasById.put(id, schema);
    versionsBySubject.computeIfAbsent(subject, s -> new ArrayList<>()).add(id);
    return id;
  }

  @Override
  public synchronized Schema getSchemaById(int id) {
    Schema schema = schemasById.get(id);
    if (schema == null) {
      throw new SchemaRegistryException(
          404, SchemaRegistryException.SCHEMA_NOT_FOUND, "Schema " + id + " not found");
    }
    return schema;
  }

  @Override
  public synchronized RegisteredSchema lookup(String subject, Schema schema) {
    List<Integer> versions = versions(subject);
    Integer id = idsBySchema.get(key(schema));
    int index = id == null ? -1 : versions.indexOf(id);
    if (index < 0) {
      throw new SchemaRegistryException(
          404, SchemaRegistryException.SCHEMA_NOT_FOUND, "Schema not found under " + subject);
    }
    return new RegisteredSchema(subject, id, index + 1, schemasById.get(id));
  }

  @Override
  public synchronized RegisteredSchema getLatest(String subject) {
    List<Integer> versions = versions(subject);
    int id = versions.get(versions.size() - 1);
    return new RegisteredSchema(subject, id, versions.size(), schemasById.get(id));
  }

  @Override
  public synchronized boolean testCompatibility(String subject, Schema schema) {
    versions(subject);
    return compatible(subject, schema);
  }

  @Override
  public synchronized void setCompatibility(String subject, String level) {
    compatibilityBySubject.put(subject, Compatibility.parse(level));
  }

  private boolean compatible(String subject, Schema schema) {
    List<Schema> history = new ArrayList<>();
    for (int id : versionsBySubject.getOrDefault(subject, List.of())) {
      history.add(schemasById.get(id));
    }
    return compatibilityBySubject
        .getOrDefault(subject, defaultCompatibility)
        .allows(schema, history);
  }

  private List<Integer> versions(String subject) {
    List<Integer> versions = versionsBySubject.get(subject);
    if (versions == null || versions.isEmpty()) {
      throw new SchemaRegistryException(
          404, SchemaRegistryException.SUBJECT_NOT_FOUND, "Subject " + subject + " not found");
    }
    return versions;
  }

  private static String key(Schema schema) {
    return schema.toString();
  }
}
