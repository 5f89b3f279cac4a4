/**
 * The YAML half of the codecs: internal, not exported by the module, not API.
 *
 * <p>{@link dev.machinery.core.codec.yaml.YamlReader} reads a YAML stream into documents of {@link
 * dev.machinery.core.codec.yaml.YamlNode}s under the codec's limits: each document's size checked
 * first, then the block scanner ({@link dev.machinery.core.codec.yaml.YamlBlockScanner}) for
 * block-style streams, and SnakeYAML's parser, its tokens checked for the YAML 1.2 rules it does
 * not apply, for the rest. {@link dev.machinery.core.codec.yaml.YamlTreeParser} replays a document
 * to Jackson as tokens. {@link dev.machinery.core.codec.yaml.YamlEmitter} is the generator the YAML
 * mapper serializes into, {@link dev.machinery.core.codec.yaml.YamlQuoting} decides which strings
 * it quotes, and {@link dev.machinery.core.codec.yaml.YamlNumbers} how it writes floating-point
 * numbers. The public {@link dev.machinery.core.codec.Codec} is the only way in.
 */
package dev.machinery.core.codec.yaml;
