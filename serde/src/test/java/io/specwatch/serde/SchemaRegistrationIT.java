package io.specwatch.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RequestAcceptance;
import io.specwatch.schemas.RunContext;
import io.specwatch.schemas.WindowResult;
import io.specwatch.testkit.SpecwatchContainers;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every project schema registers in the real registry, and its compatibility rules hold. */
class SchemaRegistrationIT {
  private static final List<Schema> ALL =
      List.of(
          DecodeEvent.getClassSchema(),
          RunContext.getClassSchema(),
          RequestAcceptance.getClassSchema(),
          WindowResult.getClassSchema(),
          Alert.getClassSchema(),
          DeadLetter.getClassSchema());

  private static SchemaRegistryClient client;

  @BeforeAll
  static void connect() {
    client =
        SchemaRegistryClients.create(
            RegistryConfig.from(Map.of("schema.registry.url", SpecwatchContainers.registryUrl())));
  }

  /** A client without a cache, so every answer comes from the registry. */
  private static SchemaRegistryClient uncached() {
    return new HttpSchemaRegistryClient(
        RegistryConfig.from(Map.of("schema.registry.url", SpecwatchContainers.registryUrl())));
  }

  @Test
  void registersEveryProjectSchema() {
    String prefix = SpecwatchContainers.uniqueName("it.schemas");
    Set<Integer> ids = new HashSet<>();
    SchemaRegistryClient fresh = uncached();
    for (Schema schema : ALL) {
      String subject = prefix + "-" + schema.getName() + "-value";
      int id = client.register(subject, schema);
      ids.add(id);

      assertThat(fresh.register(subject, schema)).as("idempotent %s", subject).isEqualTo(id);
      assertThat(fresh.getSchemaById(id)).as(subject).isEqualTo(schema);
      RegisteredSchema found = fresh.lookup(subject, schema);
      assertThat(found.id()).isEqualTo(id);
      assertThat(found.version()).isEqualTo(1);
      RegisteredSchema latest = fresh.getLatest(subject);
      assertThat(latest.id()).isEqualTo(id);
      assertThat(latest.schema()).isEqualTo(schema);
    }
    assertThat(ids).hasSize(ALL.size());
  }

  @Test
  void backwardCompatibleChangeIsAcceptedAndIncompatibleOnesRejected() {
    String subject = SpecwatchContainers.uniqueName("it.evolve") + "-value";
    Schema v1 = DeadLetter.getClassSchema();
    int firstId = client.register(subject, v1);
    client.setCompatibility(subject, "BACKWARD");

    Schema addedWithDefault = Schemas.with(v1, "gpu", Schema.create(Schema.Type.STRING), "unknown");
    Schema addedWithoutDefault = Schemas.with(v1, "gpu", Schema.create(Schema.Type.STRING), null);
    Schema retyped =
        Schemas.with(
            Schemas.without(v1, Set.of("stage")), "stage", Schema.create(Schema.Type.INT), null);

    assertThat(client.testCompatibility(subject, addedWithDefault)).isTrue();
    assertThat(client.testCompatibility(subject, addedWithoutDefault)).isFalse();
    assertThat(client.testCompatibility(subject, retyped)).isFalse();

    int secondId = client.register(subject, addedWithDefault);
    assertThat(secondId).isNotEqualTo(firstId);
    assertThat(uncached().getLatest(subject).version()).isEqualTo(2);

    // BACKWARD compares with the latest version, now v2: build the bad candidates from v2
    Schema v2AddedWithoutDefault =
        Schemas.with(addedWithDefault, "tier", Schema.create(Schema.Type.STRING), null);
    Schema v2Retyped =
        Schemas.with(
            Schemas.without(addedWithDefault, Set.of("stage")),
            "stage",
            Schema.create(Schema.Type.INT),
            null);
    for (Schema bad : List.of(v2AddedWithoutDefault, v2Retyped)) {
      assertThat(client.testCompatibility(subject, bad)).isFalse();
      assertThatThrownBy(() -> client.register(subject, bad))
          .isInstanceOf(SchemaRegistryException.class)
          .satisfies(
              e -> {
                SchemaRegistryException sre = (SchemaRegistryException) e;
                assertThat(sre.httpStatus()).isEqualTo(409);
                assertThat(sre.isRetriable()).isFalse();
              });
    }
    assertThat(uncached().getLatest(subject).version()).isEqualTo(2);
  }

  @Test
  void missingSubjectsAndIdsCarryTheRegistryErrorCodes() {
    SchemaRegistryClient fresh = uncached();
    String subject = SpecwatchContainers.uniqueName("it.missing") + "-value";
    assertThatThrownBy(() -> fresh.getLatest(subject))
        .isInstanceOf(SchemaRegistryException.class)
        .satisfies(
            e -> {
              SchemaRegistryException sre = (SchemaRegistryException) e;
              assertThat(sre.httpStatus()).isEqualTo(404);
              assertThat(sre.errorCode()).isEqualTo(SchemaRegistryException.SUBJECT_NOT_FOUND);
            });
    assertThatThrownBy(() -> fresh.getSchemaById(987_654_321))
        .isInstanceOf(SchemaRegistryException.class)
        .satisfies(
            e -> {
              SchemaRegistryException sre = (SchemaRegistryException) e;
              assertThat(sre.httpStatus()).isEqualTo(404);
              assertThat(sre.errorCode()).isEqualTo(SchemaRegistryException.SCHEMA_NOT_FOUND);
            });
  }
}
