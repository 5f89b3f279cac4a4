/**
 * The decoding demonstration: {@link dev.machinery.examples.decode.DecodeManifest} reads a YAML
 * manifest with several documents and prints each object, then shows what strict field validation
 * says about a mistyped field.
 */
package dev.machinery.examples.decode;
