; PHP

; -- definitions -------------------------------------------------------------------------------------------------
(function_definition name: (name) @name.definition.function)
(method_declaration name: (name) @name.definition.method)
(class_declaration name: (name) @name.definition.class)
(interface_declaration name: (name) @name.definition.interface)
(trait_declaration name: (name) @name.definition.class)
(enum_declaration name: (name) @name.definition.enum)

; -- references --------------------------------------------------------------------------------------------------
(function_call_expression function: (name) @name.reference.call)
(function_call_expression function: (qualified_name (name) @name.reference.call))
(member_call_expression name: (name) @name.reference.call)
(nullsafe_member_call_expression name: (name) @name.reference.call)
(scoped_call_expression name: (name) @name.reference.call)
(scoped_call_expression scope: [(name) @name.reference.class (qualified_name) @name.reference.class])
(class_constant_access_expression . [(name) @name.reference.class (qualified_name) @name.reference.class])
(object_creation_expression [(name) @name.reference.class (qualified_name) @name.reference.class])
(base_clause [(name) @name.reference.class (qualified_name) @name.reference.class])
(class_interface_clause [(name) @name.reference.class (qualified_name) @name.reference.class])
(use_declaration [(name) @name.reference.class (qualified_name) @name.reference.class])
(named_type [(name) @name.reference.type (qualified_name) @name.reference.type])
(name) @name.reference.identifier

; -- imports -----------------------------------------------------------------------------------------------------
(namespace_use_declaration (namespace_use_clause [(qualified_name) (name)] @import))
(namespace_use_declaration
  (namespace_name) @import
  body: (namespace_use_group (namespace_use_clause [(qualified_name) (name)] @import.name)))
(require_expression [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)
  (binary_expression right: [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)])])
(require_once_expression [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)
  (binary_expression right: [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)])])
(include_expression [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)
  (binary_expression right: [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)])])
(include_once_expression [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)
  (binary_expression right: [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)])])
(namespace_definition name: (namespace_name) @namespace)
