package dev.machinery.unversioned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.machinery.MachineryException;
import dev.machinery.core.codec.CodecFactory;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Issue 12: the library runs on the module path, so its {@code module-info} exports and opens are
 * exercised, not only read: the modules of the library and of Jackson are resolved into a fresh
 * module layer, and the shared types are decoded and encoded there (Jackson reaching into {@code
 * meta.v1} needs the package opened to it).
 */
class ModulePathTest {
  private static Path locationOf(Class<?> type) throws Exception {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static ModuleLayer layer() throws Exception {
    List<Path> paths = new ArrayList<>();
    for (Class<?> type :
        List.of(
            ModulePathTest.class
                .getClassLoader()
                .loadClass("dev.machinery.unversioned.meta.v1.MetaV1"),
            CodecFactory.class,
            MachineryException.class,
            ObjectMapper.class,
            JsonFactory.class,
            JsonProperty.class,
            YAMLFactory.class,
            LoaderOptions.class)) {
      paths.add(locationOf(type));
    }
    ModuleFinder finder = ModuleFinder.of(paths.toArray(new Path[0]));
    Configuration configuration =
        ModuleLayer.boot()
            .configuration()
            .resolve(finder, ModuleFinder.of(), Set.of("dev.machinery.unversioned"));
    return ModuleLayer.boot()
        .defineModulesWithOneLoader(configuration, ClassLoader.getPlatformClassLoader());
  }

  @Test
  void decodesAndEncodesTheSharedTypesInANamedModuleLayer() throws Exception {
    ModuleLayer layer = layer();
    Module unversioned = layer.findModule("dev.machinery.unversioned").orElseThrow();
    Module core = layer.findModule("dev.machinery.core").orElseThrow();
    assertTrue(unversioned.isNamed());
    assertTrue(core.isExported("dev.machinery.core.codec"));
    assertFalse(core.isExported("dev.machinery.core.internal"));
    assertTrue(
        unversioned.isOpen(
            "dev.machinery.unversioned.meta.v1",
            layer.findModule("com.fasterxml.jackson.databind").orElseThrow()));
    ClassLoader loader = layer.findLoader("dev.machinery.unversioned");
    Class<?> schemeClass = loader.loadClass("dev.machinery.core.runtime.Scheme");
    Class<?> builderClass = loader.loadClass("dev.machinery.core.runtime.Scheme$Builder");
    Class<?> metaV1 = loader.loadClass("dev.machinery.unversioned.meta.v1.MetaV1");
    assertEquals(unversioned, metaV1.getModule());
    Object builder = schemeClass.getMethod("builder").invoke(null);
    metaV1.getMethod("addToScheme", builderClass).invoke(null, builder);
    Object scheme = builderClass.getMethod("build").invoke(builder);
    Class<?> factoryClass = loader.loadClass("dev.machinery.core.codec.CodecFactory");
    Object codecs = factoryClass.getMethod("create", schemeClass).invoke(null, scheme);
    Object json = factoryClass.getMethod("json").invoke(codecs);
    Class<?> codecClass = loader.loadClass("dev.machinery.core.codec.Codec");
    String document =
        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"PartialObjectMetadata\","
            + "\"metadata\":{\"name\":\"a\",\"creationTimestamp\":\"2024-05-01T12:00:00Z\","
            + "\"labels\":{\"app\":\"web\"}}}";
    Object decoded = codecClass.getMethod("decode", String.class).invoke(json, document);
    Object object = decoded.getClass().getMethod("object").invoke(decoded);
    assertEquals(
        "dev.machinery.unversioned.meta.v1.PartialObjectMetadata", object.getClass().getName());
    Method encode = codecClass.getMethod("encodeToString", Object.class);
    assertEquals(document, encode.invoke(json, object));
  }

  @Test
  void readsKubernetesProtoFilesFromTheNamedModule() throws Exception {
    ModuleLayer layer = layer();
    ClassLoader loader = layer.findLoader("dev.machinery.unversioned");
    Class<?> protos = loader.loadClass("dev.machinery.unversioned.protobuf.KubeProtos");
    assertTrue(protos.getModule().isNamed());
    Object schema = protos.getMethod("v1_33").invoke(null);
    Object messages = schema.getClass().getMethod("messages").invoke(schema);
    assertEquals(1159, ((java.util.Collection<?>) messages).size());
  }
}
