/**
 * Kubernetes' protobuf encoding ({@code application/vnd.kubernetes.protobuf}): {@link
 * dev.machinery.unversioned.protobuf.ProtobufCodec} writes and reads objects in the {@code k8s\0}
 * envelope ({@code runtime.Unknown}: type meta, raw message, content encoding and type), each
 * kind's message built from the field numbers its Java type declares with {@link
 * dev.machinery.conversion.ProtoField}, as Go's struct tags declare them. For objects without
 * classes, {@link dev.machinery.unversioned.protobuf.SchemaProtobufCodec} writes and reads JSON
 * trees by the field numbers of {@code .proto} files, parsed into a {@link
 * dev.machinery.unversioned.protobuf.ProtoSchema}; {@link
 * dev.machinery.unversioned.protobuf.KubeProtos} holds Kubernetes' own files.
 */
package dev.machinery.unversioned.protobuf;
