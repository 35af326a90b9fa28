; inherits: c
; C++: C's captures plus classes, namespaces, qualified method definitions and templates.

(class_specifier name: (type_identifier) @name.definition.class body: (_))
(function_definition declarator: (function_declarator declarator: (qualified_identifier name: (identifier) @name.definition.method)))
(function_definition declarator: (function_declarator declarator: (field_identifier) @name.definition.method))
(field_declaration declarator: (function_declarator declarator: (field_identifier) @name.definition.method))
(namespace_definition name: (namespace_identifier) @name.definition.module)

(call_expression function: (qualified_identifier name: (identifier) @name.reference.call))
(base_class_clause (type_identifier) @name.reference.class)
(namespace_identifier) @name.reference.identifier
