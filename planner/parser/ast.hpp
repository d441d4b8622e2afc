#pragma once
// Umbrella header for the SQL AST. Include this (not the ast_*.hpp parts)
// in code that copies, compares or destroys AST nodes: the parts refer to
// each other through Box<> and need every type complete at those points.

#include "planner/parser/ast_ddl.hpp"
#include "planner/parser/ast_dml.hpp"
#include "planner/parser/ast_expr.hpp"
#include "planner/parser/ast_option.hpp"
#include "planner/parser/ast_query.hpp"
#include "planner/parser/ast_session.hpp"
#include "planner/parser/ast_show.hpp"
#include "planner/parser/ast_statement.hpp"
