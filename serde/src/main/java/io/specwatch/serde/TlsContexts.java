package io.specwatch.serde;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.common.config.ConfigException;

/** Builds the TLS context for the registry from the configured stores. */
final class TlsContexts {
  private TlsContexts() {}

  static SSLContext create(RegistryConfig config) {
    try {
      TrustManagerFactory tmf = null;
      if (config.trustStore() != null) {
        tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(load(config.trustStore(), RegistryConfig.TRUSTSTORE_PREFIX));
      }
      KeyManagerFactory kmf = null;
      if (config.keyStore() != null) {
        kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        String keyPassword =
            config.keyPassword() != null ? config.keyPassword() : config.keyStore().password();
        kmf.init(
            load(config.keyStore(), RegistryConfig.KEYSTORE_PREFIX),
            keyPassword == null ? new char[0] : keyPassword.toCharArray());
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(
          kmf == null ? null : kmf.getKeyManagers(),
          tmf == null ? null : tmf.getTrustManagers(),
          null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new ConfigException("cannot build TLS context for the schema registry: " + e);
    }
  }

  private static KeyStore load(StoreConfig store, String prefix) {
    try (InputStream in = Files.newInputStream(store.location())) {
      KeyStore keyStore = KeyStore.getInstance(store.type());
      keyStore.load(in, store.passwordChars());
      return keyStore;
    } catch (IOException | GeneralSecurityException e) {
      throw new ConfigException(
          prefix + ".location",
          store.location().toString(),
          "cannot load store: " + e.getMessage());
    }
  }
}
