package dev.machinery.unversioned.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The proto2 parser and the resolution of type names, on Kubernetes' files and small ones. */
class ProtoSchemaTest {
  private static ProtoSchemaException failure(String text) {
    return assertThrows(
        ProtoSchemaException.class, () -> ProtoSchema.builder().add("a.proto", text).build());
  }

  @Test
  void parsesKubernetes133Files() {
    ProtoSchema schema = KubeProtos.v1_33();
    assertEquals(66, schema.files().size());
    assertEquals(66, KubeProtos.v1_33Files().size());
    assertEquals(1159, schema.messages().size());
    assertSame(schema, KubeProtos.v1_33());
    ProtoFile apps = schema.file("k8s.io/api/apps/v1/generated.proto").orElseThrow();
    assertEquals("k8s.io.api.apps.v1", apps.packageName());
    assertEquals("k8s.io/api/apps/v1", apps.option("go_package").orElseThrow());
    assertTrue(apps.imports().contains("k8s.io/api/core/v1/generated.proto"));
  }

  @Test
  void resolvesDeploymentFields() {
    MessageDescriptor deployment =
        KubeProtos.v1_33().message("k8s.io.api.apps.v1.Deployment").orElseThrow();
    assertEquals("k8s.io/api/apps/v1/generated.proto", deployment.file());
    assertEquals(
        List.of("metadata", "spec", "status"),
        deployment.fields().stream().map(FieldDescriptor::name).toList());
    assertEquals(
        "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",
        deployment.field(1).orElseThrow().messageType());
    FieldDescriptor replicas =
        KubeProtos.v1_33()
            .message("k8s.io.api.apps.v1.DeploymentSpec")
            .orElseThrow()
            .field("replicas")
            .orElseThrow();
    assertEquals(
        new FieldDescriptor(
            "replicas", 1, FieldDescriptor.Label.OPTIONAL, ScalarType.INT32, null, null, false),
        replicas);
    FieldDescriptor labels =
        KubeProtos.v1_33()
            .message("k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta")
            .orElseThrow()
            .field("labels")
            .orElseThrow();
    assertEquals(FieldDescriptor.Label.MAP, labels.label());
    assertEquals(ScalarType.STRING, labels.mapKey());
    assertEquals(ScalarType.STRING, labels.scalar());
    FieldDescriptor secretData =
        KubeProtos.v1_33()
            .message("k8s.io.api.core.v1.Secret")
            .orElseThrow()
            .field(2)
            .orElseThrow();
    assertEquals(ScalarType.BYTES, secretData.scalar());
  }

  @Test
  void keepsTheCommentTagsOfWrapperMessages() {
    MessageDescriptor extra =
        KubeProtos.v1_33().message("k8s.io.api.authentication.v1.ExtraValue").orElseThrow();
    assertEquals(
        Set.of("protobuf.nullable=true", "protobuf.options.(gogoproto.goproto_stringer)=false"),
        extra.commentTags());
  }

  @Test
  void resolvesNamesFromTheInnermostScopeOutwards() {
    ProtoSchema schema =
        ProtoSchema.builder()
            .add(
                "b.proto",
                "syntax = \"proto2\";\npackage x.y;\nmessage Inner { optional string s = 1; }\n")
            .add(
                "a.proto",
                """
                syntax = "proto2";
                package x.y.z;
                import "b.proto";
                /* a block comment */
                message Outer {
                  // +tag=value
                  message Inner { optional int64 n = 1; }
                  optional Inner mine = 1;
                  optional y.Inner theirs = 2;
                  optional .x.y.Inner absolute = 3;
                  repeated Outer.Inner many = 4 [deprecated = true];
                  repeated sint64 numbers = 6 [packed = true];
                  map<int32, Inner> byNumber = 5;
                }
                message Other { optional Inner top = 1; }
                """)
            .build();
    MessageDescriptor outer = schema.message("x.y.z.Outer").orElseThrow();
    assertEquals("x.y.z.Outer.Inner", outer.field("mine").orElseThrow().messageType());
    assertEquals("x.y.Inner", outer.field("theirs").orElseThrow().messageType());
    assertEquals("x.y.Inner", outer.field("absolute").orElseThrow().messageType());
    assertEquals("x.y.z.Outer.Inner", outer.field("many").orElseThrow().messageType());
    assertEquals(ScalarType.INT32, outer.field("byNumber").orElseThrow().mapKey());
    assertTrue(outer.field("numbers").orElseThrow().packed());
    assertEquals(
        "x.y.Inner",
        schema.message("x.y.z.Other").orElseThrow().field("top").orElseThrow().messageType());
    assertEquals(
        Set.of("tag=value"), schema.message("x.y.z.Outer.Inner").orElseThrow().commentTags());
  }

  @Test
  void rejectsAMissingSemicolon() {
    assertEquals(
        "a.proto:2: expected ;, found \"message\"",
        failure("package p\nmessage M {}\n").getMessage());
  }

  @Test
  void rejectsProto3() {
    ProtoSchemaException e = failure("syntax = \"proto3\";\n");
    assertEquals(
        "a.proto:1: expected syntax \"proto2\", found \"proto3\": only proto2 files are supported",
        e.getMessage());
    assertEquals("a.proto", e.file());
    assertEquals(1, e.line());
  }

  @Test
  void rejectsConstructsOutsideTheSubset() {
    assertEquals(
        "a.proto:3: expected syntax, package, import, option or message, found \"enum\"",
        failure("syntax = \"proto2\";\n\nenum E { A = 0; }\n").getMessage());
    assertEquals(
        "a.proto:2: expected a field (optional, required, repeated or map), a nested message, an"
            + " option or } in message M, found \"oneof\"",
        failure("message M {\n  oneof o { string a = 1; }\n}\n").getMessage());
  }

  @Test
  void rejectsAFieldNumberUsedTwice() {
    assertEquals(
        "a.proto:3: field number 1 of \"b\" is already used by \"a\" in message p.M",
        failure("package p;\nmessage M { optional string a = 1;\n optional string b = 1; }\n")
            .getMessage());
  }

  @Test
  void rejectsReservedFieldNumbers() {
    assertEquals(
        "a.proto:1: expected a field number from 1 to 536870911 outside 19000-19999, found 19500",
        failure("message M { optional string a = 19500; }").getMessage());
  }

  @Test
  void rejectsPackedStrings() {
    assertEquals(
        "a.proto:1: [packed = true] is only for repeated numeric fields (s)",
        failure("message M { repeated string s = 1 [packed = true]; }").getMessage());
  }

  @Test
  void rejectsAnUnclosedMessage() {
    assertEquals(
        "a.proto:2: expected } to close message M, found the end of the file",
        failure("message M {\n  optional string a = 1;").getMessage());
  }

  @Test
  void rejectsAnUndefinedType() {
    assertEquals(
        "a.proto:2: expected a scalar or message type for field \"a\", found \"Missing\", which is"
            + " not defined",
        failure("package p;\nmessage M { optional Missing a = 1; }\n").getMessage());
  }

  @Test
  void rejectsATypeOfAFileNotImported() {
    ProtoSchemaException e =
        assertThrows(
            ProtoSchemaException.class,
            () ->
                ProtoSchema.builder()
                    .add("b.proto", "package q;\nmessage T {}\n")
                    .add("a.proto", "package p;\nmessage M { optional q.T t = 1; }\n")
                    .build());
    assertEquals(
        "a.proto:2: field \"t\" uses q.T, declared in b.proto, which this file does not import",
        e.getMessage());
  }

  @Test
  void rejectsAMissingImport() {
    assertEquals(
        "a.proto: imports \"gone.proto\", which is not among the files given",
        failure("import \"gone.proto\";\n").getMessage());
  }

  @Test
  void rejectsAMessageDeclaredTwice() {
    ProtoSchemaException e =
        assertThrows(
            ProtoSchemaException.class,
            () ->
                ProtoSchema.builder()
                    .add("b.proto", "package p;\nmessage M {}\n")
                    .add("a.proto", "package p;\n\nmessage M {}\n")
                    .build());
    assertEquals("a.proto:3: message p.M is already declared in b.proto", e.getMessage());
  }

  @Test
  void reportsEveryUnresolvedNameAtOnce() {
    ProtoSchemaException e =
        failure(
            "package p;\nmessage M {\n  optional A a = 1;\n  optional B b = 2;\n}\n"
                + "import \"c.proto\";\n");
    assertEquals(
        "a.proto: imports \"c.proto\", which is not among the files given (and 2 more: a.proto:3:"
            + " expected a scalar or message type for field \"a\", found \"A\", which is not"
            + " defined; a.proto:4: expected a scalar or message type for field \"b\", found"
            + " \"B\", which is not defined)",
        e.getMessage());
    assertEquals(2, e.getSuppressed().length);
    ProtoSchemaException second = (ProtoSchemaException) e.getSuppressed()[0];
    assertEquals(3, second.line());
    assertEquals(
        "expected a scalar or message type for field \"a\", found \"A\", which is not defined",
        second.problem());
  }

  @Test
  void rejectsAnUnterminatedComment() {
    assertEquals(
        "a.proto:2: expected */ to close the comment",
        failure("package p;\n/* open\n\n").getMessage());
  }
}
