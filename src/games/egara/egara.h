/* Egara-guti, the Indian war game of forced jump-captures (rules/egara-guti.md). */
#pragma once

#include "core/game.h"

extern const struct game egara_game;
