; C (C++ inherits this)

; -- definitions -------------------------------------------------------------------------------------------------
(function_definition declarator: (function_declarator declarator: (identifier) @name.definition.function))
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function)))
(declaration declarator: (function_declarator declarator: (identifier) @name.definition.function))
(struct_specifier name: (type_identifier) @name.definition.class body: (_))
(union_specifier name: (type_identifier) @name.definition.class body: (_))
(enum_specifier name: (type_identifier) @name.definition.enum body: (_))
(type_definition declarator: (type_identifier) @name.definition.type)
(preproc_function_def name: (identifier) @name.definition.macro)
(preproc_def name: (identifier) @name.definition.constant)

; -- references --------------------------------------------------------------------------------------------------
(call_expression function: (identifier) @name.reference.call)
(call_expression function: (field_expression field: (field_identifier) @name.reference.call))
(type_identifier) @name.reference.type
(field_identifier) @name.reference.member
(identifier) @name.reference.identifier

; -- imports -----------------------------------------------------------------------------------------------------
(preproc_include path: (string_literal (string_content) @import))
(preproc_include path: (system_lib_string) @import.system)
