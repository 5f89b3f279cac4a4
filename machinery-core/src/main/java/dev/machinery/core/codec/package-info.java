/**
 * Decoding and encoding of API objects as JSON and YAML.
 *
 * <p>{@link dev.machinery.core.codec.CodecFactory} builds the library's own Jackson stack for a
 * {@link dev.machinery.core.runtime.Scheme} under {@link dev.machinery.core.codec.CodecLimits}; its
 * {@link dev.machinery.core.codec.Codec}s find a document's type from {@code apiVersion} and {@code
 * kind}, bind it, and report unknown and duplicate fields according to {@link
 * dev.machinery.core.codec.FieldValidation}. A decoded object comes back as {@link
 * dev.machinery.core.codec.Decoded}, with its warnings; {@code decodingTo} and {@code encodingTo}
 * convert through the Scheme on the way in and out. Bad input raises {@link
 * dev.machinery.core.codec.DecodeException} or one of its subtypes.
 */
package dev.machinery.core.codec;
