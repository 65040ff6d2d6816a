package io.specwatch.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.specwatch.schemas.DeadLetter;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS settings reach the handshake: trust store, client key store (mutual TLS), key password. */
class TlsRegistryClientTest {
  private static final String PASSWORD = "changeit-test";

  @TempDir static Path dir;
  private static HttpsServer server;
  private static Path keyStore;
  private static Path trustStore;

  @BeforeAll
  static void start() throws Exception {
    keyStore = dir.resolve("registry.p12");
    trustStore = dir.resolve("trust.p12");
    Path cert = dir.resolve("registry.crt");
    keytool(
        "-genkeypair",
        "-alias",
        "registry",
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-validity",
        "2",
        "-dname",
        "CN=127.0.0.1",
        "-ext",
        "SAN=ip:127.0.0.1",
        "-storetype",
        "PKCS12",
        "-keystore",
        keyStore.toString(),
        "-storepass",
        PASSWORD,
        "-keypass",
        PASSWORD);
    keytool(
        "-exportcert",
        "-alias",
        "registry",
        "-keystore",
        keyStore.toString(),
        "-storepass",
        PASSWORD,
        "-file",
        cert.toString());
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "registry",
        "-file",
        cert.toString(),
        "-storetype",
        "PKCS12",
        "-keystore",
        trustStore.toString(),
        "-storepass",
        PASSWORD);

    SSLContext context = SSLContext.getInstance("TLS");
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(load(keyStore), PASSWORD.toCharArray());
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(load(trustStore));
    context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);

    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(
        new HttpsConfigurator(context) {
          @Override
          public void configure(HttpsParameters params) {
            params.setNeedClientAuth(true);
          }
        });
    String schema = DeadLetter.getClassSchema().toString().replace("\"", "\\\"");
    server.createContext(
        "/",
        exchange -> {
          byte[] body = ("{\"schema\":\"" + schema + "\"}").getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  private static String url() {
    return "https://127.0.0.1:" + server.getAddress().getPort();
  }

  @Test
  void mutualTlsWithConfiguredStores() {
    RegistryConfig config =
        RegistryConfig.from(
            Map.of(
                "schema.registry.url",
                url(),
                "schema.registry.ssl.truststore.location",
                trustStore.toString(),
                "schema.registry.ssl.truststore.password",
                PASSWORD,
                "schema.registry.ssl.truststore.type",
                "PKCS12",
                "schema.registry.ssl.keystore.location",
                keyStore.toString(),
                "schema.registry.ssl.keystore.password",
                PASSWORD,
                "schema.registry.ssl.keystore.type",
                "PKCS12",
                "schema.registry.ssl.key.password",
                PASSWORD));
    assertThat(config.toString()).doesNotContain(PASSWORD);
    assertThat(new HttpSchemaRegistryClient(config).getSchemaById(1))
        .isEqualTo(DeadLetter.getClassSchema());
  }

  @Test
  void withoutTheTrustStoreTheHandshakeFailsAndIsNotRetriedForever() {
    RegistryConfig config =
        RegistryConfig.from(Map.of("schema.registry.url", url(), "max.retries", 0));
    assertThatThrownBy(() -> new HttpSchemaRegistryClient(config).getSchemaById(1))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining(url());
  }

  private static KeyStore load(Path path) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(path)) {
      store.load(in, PASSWORD.toCharArray());
    }
    return store;
  }

  private static void keytool(String... args) throws Exception {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    List<String> command = new java.util.ArrayList<>(List.of(keytool.toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException("keytool " + args[0] + " failed: " + output);
    }
  }
}
