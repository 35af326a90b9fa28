; inherits: ecma
; TypeScript: the captures it shares with JavaScript plus types, interfaces, enums and namespaces.

(function_signature name: (identifier) @name.definition.function)
(method_signature name: (property_identifier) @name.definition.method)
(abstract_method_signature name: (property_identifier) @name.definition.method)
(abstract_class_declaration name: (type_identifier) @name.definition.class)
(interface_declaration name: (type_identifier) @name.definition.interface)
(type_alias_declaration name: (type_identifier) @name.definition.type)
(enum_declaration name: (identifier) @name.definition.enum)
(internal_module name: (identifier) @name.definition.module)
(module name: (identifier) @name.definition.module)

(type_identifier) @name.reference.type
(new_expression constructor: (identifier) @name.reference.class)
(extends_clause value: (identifier) @name.reference.class)
(nested_type_identifier name: (type_identifier) @name.reference.type)

(import_statement (import_require_clause source: (string (string_fragment) @import)))
(import_require_clause (identifier) @import.binding)
